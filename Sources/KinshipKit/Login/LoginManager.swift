import Foundation
import KinshipCore

/// Logs people in: builds the dialog request (PKCE S256 and `state`), shows it through a
/// ``LoginPresenter``, takes the redirect back, exchanges the code and opens the ``session``.
///
/// As the ``AccessTokenProvider`` of a ``GraphClient`` it keeps the person logged in: a token that
/// expires within ``refreshMargin`` seconds is renewed with its refresh token before the call.
/// A login that asks for `Permission.openID` also returns a verified
/// ``AuthenticationToken``.
///
/// One login at a time: a second ``logIn(permissions:authType:nonce:)`` while one is pending throws
/// ``LoginError/loginInProgress``. Read and publish permissions are asked for in separate logins.
public actor LoginManager {
    /// The platform and app this manager logs in to.
    public let configuration: KinshipConfiguration
    /// The current session. When it has closed, the next login starts a new one on the same cache.
    public private(set) var session: Session
    private let presenter: any LoginPresenter
    /// Seconds before its expiry that a token is renewed.
    public let refreshMargin: TimeInterval
    let exchange: TokenExchange
    let verifier: AuthenticationTokenVerifier
    private let timeout: Duration
    /// How a device login waits between polls (a test moves its clock instead).
    let sleep: @Sendable (Duration) async throws -> Void
    var pending: PendingLogin?
    /// Set by ``cancel()`` for a device login, which looks at it after each wait.
    var deviceLoginCancelled = false

    /// A manager for `session`'s app; logins time out after `timeout` without a redirect, and tokens
    /// are renewed `refreshMargin` seconds before they expire (by the session's clock). A device
    /// login waits between polls with `sleep`.
    ///
    /// - Parameters:
    ///   - configuration: The platform and the app.
    ///   - session: The session to open; it must be for `configuration`'s app.
    ///   - presenter: How the dialog is shown and the redirect received.
    ///   - transport: How requests reach the platform.
    ///   - timeout: How long a login waits for the redirect.
    ///   - refreshMargin: Seconds before expiry that a token is renewed.
    ///   - sleep: How a device login waits between polls.
    public init(
        configuration: KinshipConfiguration,
        session: Session,
        presenter: any LoginPresenter,
        transport: any HTTPTransport = SystemTransport(),
        timeout: Duration = .seconds(600),
        refreshMargin: TimeInterval = 300,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.session = session
        self.presenter = presenter
        self.exchange = TokenExchange(configuration: configuration, transport: transport, clock: session.clock)
        self.verifier = AuthenticationTokenVerifier(configuration: configuration, transport: transport, clock: session.clock)
        self.timeout = timeout
        self.refreshMargin = refreshMargin
        self.sleep = sleep
    }

    /// Logs the person in, asking for `permissions` (`public_profile` is always part of a login).
    ///
    /// On a session that is already open, the new token replaces the old one
    /// (`openTokenExtended`). Permissions the person declined before are asked again with
    /// `auth_type=rerequest` unless `authType` says otherwise. With `Permission.openID`
    /// among `permissions`, the login sends `nonce` (a random one when `nil`) and returns the
    /// verified id_token as ``LoginSuccess/authenticationToken``.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words. ``LoginError/loginInProgress`` when another
    ///   login is pending; a Cancel is a ``LoginResult/cancelled`` result, not an error.
    public func logIn(
        permissions: [Permission] = [],
        authType: AuthorizationRequest.AuthType? = nil,
        nonce: String? = nil
    )
        async throws(LoginError) -> LoginResult
    {
        if await session.state.isClosed { try await startNewSession() }
        return try await run(permissions, authType: authType, nonce: nonce, extending: await session.state.isOpen)
    }

    /// Asks an open session's person for more permissions (→ `openTokenExtended`). Permissions
    /// declined before are asked with `auth_type=rerequest`, as is everything when `authType` says so.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words. ``LoginError/session(_:)`` when the session is
    ///   not open.
    public func requestPermissions(
        _ permissions: [Permission],
        authType: AuthorizationRequest.AuthType? = nil
    )
        async throws(LoginError) -> LoginResult
    {
        let state = await session.state
        guard state.isOpen else { throw .session(.illegalTransition(from: state, to: .openTokenExtended)) }
        return try await run(permissions, authType: authType, nonce: nil, extending: true)
    }

    /// The token to call the platform with, renewed first when it expires within
    /// ``refreshMargin`` (see ``Session/accessToken(refreshingWithin:using:replacing:)``).
    ///
    /// - Throws: ``GraphError``: ``GraphError/Category/recoverable`` when the platform refused the refresh (the
    ///   session is then closed), ``GraphError/Category/transient`` when it could not be reached and the token
    ///   has expired.
    public func accessTokenForCall() async throws(GraphError) -> AccessToken {
        try await session.accessToken(refreshingWithin: refreshMargin, using: exchange)
    }

    /// After the platform refused `rejected` (Graph error 190), renews it with its refresh token,
    /// unless a newer token replaced it meanwhile. Returns the token to try again with, or `nil`
    /// when there is nothing newer (no refresh token): then the person has to log in again.
    ///
    /// - Throws: ``GraphError`` when the platform refuses the renewal (the session is then closed) or cannot be
    ///   reached.
    public func renew(rejected: AccessToken) async throws(GraphError) -> AccessToken? {
        let current = try await session.accessToken(refreshingWithin: refreshMargin, using: exchange, replacing: rejected)
        return current.tokenString == rejected.tokenString ? nil : current
    }

    /// Tells the platform to end this login's tokens (the refresh token and every access token it
    /// issued), for a logout that should leave nothing usable behind. The app stays authorized:
    /// the next login does not ask again for what was granted. Call before ``logOut()``.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words.
    public func revokeTokens() async throws(LoginError) {
        guard let token = await session.accessToken else { return }
        try await exchange.revoke(token)
    }

    /// Closes the session and forgets its token (on this device; the platform still knows the
    /// login). Does nothing when the session is already closed.
    public func logOut() async {
        guard await !session.state.isClosed else { return }
        try? await session.closeAndClearTokenInformation()
    }

    /// Hands over a redirect URL the app was opened with. Returns `true` when it answers the
    /// pending login (which then finishes), `false` when it is not for this manager.
    @discardableResult
    public func handleOpenURL(_ url: URL) -> Bool {
        guard let pending, pending.isAnswer(url) else { return false }
        pending.outcomes.yield(.redirect(url))
        return true
    }

    /// Cancels the pending login, if there is one; it ends with ``LoginResult/cancelled`` (a device
    /// login at its next poll).
    public func cancel() {
        pending?.outcomes.yield(.cancelled)
        deviceLoginCancelled = true
    }

    /// Moves the session to `createdOpening`: a login is under way. The error when it cannot.
    func beginOpening() async -> LoginError? {
        do {
            try await session.beginOpening()
            return nil
        } catch let error as SessionError {
            return .session(error)
        } catch {
            return .tokenCache(String(describing: error))
        }
    }

    func startNewSession() async throws(LoginError) {
        do {
            session = try await session.successor()
        } catch {
            throw .tokenCache(String(describing: error))
        }
    }

    private func run(
        _ asked: [Permission],
        authType: AuthorizationRequest.AuthType?,
        nonce: String?,
        extending: Bool
    )
        async throws(LoginError) -> LoginResult
    {
        guard pending == nil else { throw .loginInProgress }
        try Self.checkKinds(asked)
        let current = await session.accessToken
        let rerequest = current.map { !$0.declinedPermissions.isDisjoint(with: asked) } ?? false
        var secrets = LoginSecrets.make()
        if asked.contains(.openID) { secrets.nonce = nonce ?? Base64URL.random(byteCount: 16) }
        let (outcomes, continuation) = AsyncStream<PendingLogin.Outcome>.makeStream()
        pending = PendingLogin(redirectURI: "", state: secrets.state, outcomes: continuation)
        if !extending, let error = await beginOpening() { return try await fail(error, extending) }
        let redirectURI: String
        do {
            redirectURI = try await presenter.prepare(for: configuration) { [weak self] url in _ = await self?.handleOpenURL(url) }
        } catch {
            return try await fail(.presenterFailed(String(describing: error)), extending)
        }
        pending?.redirectURI = redirectURI
        let request = AuthorizationRequest(
            clientID: configuration.appID,
            redirectURI: redirectURI,
            scope: PermissionCatalogue.loginScope(asked),
            state: secrets.state,
            codeChallenge: secrets.challenge,
            authType: authType ?? (rerequest ? .rerequest : nil),
            nonce: secrets.nonce
        )
        var dialog = URLComponents(url: configuration.dialogURL, resolvingAgainstBaseURL: false)!
        dialog.percentEncodedQuery = request.parameters.formEncoded
        do {
            try await presenter.present(dialog.url!)
        } catch {
            return try await fail(.presenterFailed(String(describing: error)), extending)
        }
        switch await Self.first(of: outcomes, within: timeout) {
        case .cancelled:
            return try await fail(nil, extending)
        case .timedOut:
            return try await fail(.timedOut, extending)
        case .redirect(let url):
            do {
                let issued = try await finish(url, secrets: secrets, redirectURI: redirectURI, extending: extending)
                await end()
                guard let issued else { return try await fail(nil, extending) }
                let token = issued.accessToken
                return .success(
                    LoginSuccess(
                        token: token,
                        grantedPermissions: token.permissions.intersection(asked),
                        declinedPermissions: token.declinedPermissions.intersection(asked),
                        authenticationToken: issued.authentication
                    )
                )
            } catch {
                return try await fail(error, extending)
            }
        }
    }

    /// Reads the redirect and, when it carries a code, exchanges it, verifies the id_token of an
    /// OpenID login and adopts the token; `nil` when the person cancelled.
    private func finish(
        _ url: URL,
        secrets: LoginSecrets,
        redirectURI: String,
        extending: Bool
    ) async throws(LoginError)
        -> (accessToken: AccessToken, authentication: AuthenticationToken?)?
    {
        let response: AuthorizationResponse
        do {
            response = try AuthorizationResponse(redirectURL: url)
        } catch {
            throw .malformedRedirect(url.absoluteString)
        }
        guard response.state == secrets.state else { throw .stateMismatch }
        switch response {
        case .error(let error, _) where error.code == .accessDenied:
            return nil
        case .error(let error, _):
            throw .dialogRefused(error)
        case .code(let code, _):
            let issued = try await exchange.redeem(code: code, redirectURI: redirectURI, verifier: secrets.verifier)
            return try await adopt(issued, openID: secrets.nonce != nil, nonce: secrets.nonce, extending: extending)
        }
    }

    /// Verifies the id_token of an OpenID login and opens (or extends) the session with the token.
    func adopt(
        _ issued: TokenExchange.Issued,
        openID: Bool,
        nonce: String?,
        extending: Bool
    ) async throws(LoginError)
        -> (accessToken: AccessToken, authentication: AuthenticationToken?)
    {
        let token = issued.accessToken
        var authentication: AuthenticationToken?
        if openID {
            guard let idToken = issued.idToken else {
                throw .authenticationTokenRejected(.rejected("the platform sent no id_token for an openid login"))
            }
            do {
                authentication = try await verifier.verify(idToken, nonce: nonce, accessToken: token.tokenString)
            } catch {
                throw .authenticationTokenRejected(error)
            }
        }
        do {
            if extending { try await session.extend(with: token) } else { try await session.open(with: token) }
        } catch let error as SessionError {
            throw .session(error)
        } catch {
            throw .tokenCache(String(describing: error))
        }
        return (token, authentication)
    }

    /// Ends a login that did not succeed: a session being opened fails (`closedLoginFailed`), an
    /// open one stays open. `nil` means cancelled.
    func fail(_ error: LoginError?, _ extending: Bool) async throws(LoginError) -> LoginResult {
        if !extending, await session.state == .createdOpening { try? await session.failLogin() }
        await end()
        if let error { throw error }
        return .cancelled
    }

    private func end() async {
        guard let login = pending else { return }
        pending = nil
        login.outcomes.finish()
        await presenter.finish()
    }

    static func checkKinds(_ permissions: [Permission]) throws(LoginError) {
        let publish = permissions.filter { PermissionCatalogue.descriptor(for: $0)?.kind == .publish }
        let read = permissions.filter {
            PermissionCatalogue.descriptor(for: $0)?.kind != .publish && $0 != .publicProfile && !$0.isProtocolScope
        }
        if !publish.isEmpty, !read.isEmpty { throw .mixedPermissionKinds(read: read, publish: publish) }
    }

    /// The first outcome of a login: a redirect, a cancel, or the time limit. Cancelling the
    /// calling task counts as cancelling the login.
    private static func first(
        of outcomes: AsyncStream<PendingLogin.Outcome>,
        within timeout: Duration
    ) async
        -> PendingLogin.Outcome
    {
        await withTaskGroup(of: PendingLogin.Outcome?.self) { group in
            group.addTask { await outcomes.first { _ in true } }
            group.addTask {
                do { try await Task.sleep(for: timeout) } catch { return nil }
                return .timedOut
            }
            let outcome = await group.next() ?? nil
            group.cancelAll()
            return outcome ?? .cancelled
        }
    }
}

/// The login a manager is waiting on.
struct PendingLogin: Sendable {
    enum Outcome: Sendable {
        case redirect(URL)
        case cancelled
        case timedOut
    }

    var redirectURI: String
    let state: String
    let outcomes: AsyncStream<Outcome>.Continuation

    /// Whether `url` goes to this login's redirect URI (same scheme, host, port and path).
    func isAnswer(_ url: URL) -> Bool {
        guard !redirectURI.isEmpty, let expected = URLComponents(string: redirectURI),
            let actual = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        return expected.scheme?.lowercased() == actual.scheme?.lowercased() && expected.host?.lowercased() == actual.host?.lowercased()
            && expected.port == actual.port && expected.percentEncodedPath == actual.percentEncodedPath
    }
}
