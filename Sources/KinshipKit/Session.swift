import Foundation

/// A person's login to an app on this device: a state machine over ``SessionState`` that keeps
/// the token in a ``TokenCache``.
///
/// Only the documented transitions are allowed; anything else throws
/// ``SessionError/illegalTransition(from:to:)``. Observers follow every change through ``changes``.
/// An open session renews its token with the refresh token (``accessToken(refreshingWithin:using:replacing:)``,
/// moving to `openTokenExtended`), which a ``LoginManager`` does before every Graph call.
public actor Session {
    /// The app this session logs in to.
    public let appID: String
    /// The key the session's token is stored under in its cache (one per account on the device).
    public let cacheKey: String
    let cache: any TokenCache
    /// Where the session reads the time to decide whether its token has expired.
    public let clock: @Sendable () -> Date
    /// Where the session is in its life.
    public internal(set) var state: SessionState = .created
    /// The token of an open session (or one loaded from the cache); `nil` before login and after close.
    public internal(set) var accessToken: AccessToken?
    /// Why the platform ended the login, when a refresh was refused: a sentence for the person.
    public internal(set) var closeReason: String?
    var refreshing: Task<Result<AccessToken, GraphError>, Never>?
    private var observers: [AsyncStream<SessionStateChange>.Continuation] = []

    /// Makes a session; a cached token for the same app that is still valid, or that its refresh
    /// token can renew, moves it to `createdTokenLoaded`. `clock` tells the time (tests move it).
    ///
    /// - Parameters:
    ///   - appID: The app the session logs in to.
    ///   - cache: Where the token is kept.
    ///   - cacheKey: The cache entry: one per account on the device.
    ///   - clock: Tells the time; tests pass a clock they move.
    ///
    /// - Throws: What the cache throws when it cannot be read at all.
    public init(
        appID: String,
        cache: any TokenCache,
        cacheKey: String = "default",
        clock: @escaping @Sendable () -> Date = Date.init
    )
        async throws
    {
        self.appID = appID
        self.cache = cache
        self.cacheKey = cacheKey
        self.clock = clock
        if let cached = try await cache.load(forKey: cacheKey), cached.appID == appID, cached.isUsable(at: clock()) {
            accessToken = cached
            state = .createdTokenLoaded
        }
    }

    /// A new session for the same app, cache entry and clock: how to log in again once this one closed.
    ///
    /// - Throws: What the cache throws when it cannot be read at all.
    public func successor() async throws -> Session {
        try await Session(appID: appID, cache: cache, cacheKey: cacheKey, clock: clock)
    }

    /// Every state change from now on.
    public var changes: AsyncStream<SessionStateChange> {
        let (stream, continuation) = AsyncStream<SessionStateChange>.makeStream()
        observers.append(continuation)
        return stream
    }

    /// Opens with the cached token, without a dialog (from `createdTokenLoaded`).
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    public func openWithCachedToken() throws {
        try move(to: .open)
    }

    /// Starts a login: the dialog is about to show.
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    public func beginOpening() throws {
        try move(to: .createdOpening)
    }

    /// Finishes a login with the token it produced, and caches the token.
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    ///   ``SessionError/tokenForAnotherApp(expected:got:)`` for another app's token; what the cache throws when
    ///   the token cannot be saved.
    public func open(with token: AccessToken) async throws {
        try await adopt(token, movingTo: .open)
    }

    /// Replaces the token of an open session (more permissions, a longer-lived token).
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    ///   ``SessionError/tokenForAnotherApp(expected:got:)`` for another app's token; what the cache throws when
    ///   the token cannot be saved.
    public func extend(with token: AccessToken) async throws {
        try await adopt(token, movingTo: .openTokenExtended)
    }

    /// The login failed or was cancelled.
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    public func failLogin() throws {
        try move(to: .closedLoginFailed)
    }

    /// Closes the session; the cached token stays, so the next session starts logged in.
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it.
    public func close() throws {
        try move(to: .closed)
    }

    /// Closes the session and forgets the token, here and in the cache.
    ///
    /// - Throws: ``SessionError/illegalTransition(from:to:)`` when the session's state does not allow it. What
    ///   the cache throws when the token cannot be deleted.
    public func closeAndClearTokenInformation() async throws {
        try validate(.closed)
        try await cache.clear(forKey: cacheKey)
        accessToken = nil
        try move(to: .closed)
    }

    /// Caches a token for this app and moves to `next`, checking both before anything changes.
    func adopt(_ token: AccessToken, movingTo next: SessionState) async throws {
        guard token.appID == appID else { throw SessionError.tokenForAnotherApp(expected: appID, got: token.appID) }
        try validate(next)
        try await cache.save(token, forKey: cacheKey)
        accessToken = token
        try move(to: next)
    }

    func validate(_ next: SessionState) throws {
        guard state.successors.contains(next) else { throw SessionError.illegalTransition(from: state, to: next) }
    }

    func move(to next: SessionState) throws {
        try validate(next)
        let change = SessionStateChange(from: state, to: next)
        state = next
        for observer in observers { observer.yield(change) }
        if next.isClosed {
            for observer in observers { observer.finish() }
            observers.removeAll()
        }
    }
}
