import Foundation
import KinshipCore

extension Session {
    /// The token to call the platform with now, renewed first when it is due.
    ///
    /// An open session's token is renewed through `exchange` with its refresh token when it expires
    /// within `margin` seconds, or when `rejected` is the current token (the platform just refused
    /// it). The renewed token is cached and the session moves to `openTokenExtended`. Concurrent
    /// callers share one renewal, so the refresh token is spent once.
    ///
    /// When the platform refuses the refresh (the person removed the app, changed their password,
    /// the refresh token was revoked or lapsed), the session closes, forgets the token, keeps the
    /// platform's reason in ``closeReason`` and throws a ``GraphError/Category/recoverable`` error
    /// carrying it. When the platform cannot be reached, a token that has not expired yet is used as
    /// it is (the renewal is tried again at the next call); an expired one throws a transient error.
    ///
    /// - Parameters:
    ///   - margin: Seconds before expiry from which the token is renewed.
    ///   - exchange: The token endpoint client that spends the refresh token.
    ///   - rejected: A token the platform just refused: renewed even before it expires, unless it was replaced
    ///       already.
    public func accessToken(
        refreshingWithin margin: TimeInterval,
        using exchange: TokenExchange,
        replacing rejected: AccessToken? = nil
    )
        async throws(GraphError) -> AccessToken
    {
        guard let token = accessToken else { throw closeReason.map(GraphError.loginEnded) ?? .notLoggedIn }
        guard state.isOpen else { return token }
        if let rejected, rejected.tokenString != token.tokenString { return token }
        let now = clock()
        guard rejected != nil || token.expirationDate.timeIntervalSince(now) <= margin, token.isRefreshable(at: now) else {
            return token
        }
        if let refreshing { return try await refreshing.value.get() }
        let renewal = Task { [forced = rejected != nil] in await renew(token, using: exchange, forced: forced) }
        refreshing = renewal
        defer { refreshing = nil }
        return try await renewal.value.get()
    }

    /// Spends `token`'s refresh token and adopts the pair that comes back. `forced`: the platform
    /// already refused `token`, so it is no use even before it expires.
    private func renew(_ token: AccessToken, using exchange: TokenExchange, forced: Bool) async -> Result<AccessToken, GraphError> {
        let renewed: AccessToken
        do {
            renewed = try await exchange.refresh(token)
        } catch {
            return await refreshFailed(token, error, forced: forced)
        }
        // The session may have closed (a logout) while the refresh was under way.
        guard state.isOpen else { return .failure(closeReason.map(GraphError.loginEnded) ?? .notLoggedIn) }
        accessToken = renewed
        try? move(to: .openTokenExtended)
        do {
            try await cache.save(renewed, forKey: cacheKey)
        } catch {
            return .failure(
                GraphError(
                    category: .other,
                    message: "The renewed token could not be saved (\(error)). It serves this process, but the next start will have to log in again."
                )
            )
        }
        return .success(renewed)
    }

    /// A refused refresh ends the login; a platform out of reach leaves an unexpired token in use.
    private func refreshFailed(_ token: AccessToken, _ error: LoginError, forced: Bool) async -> Result<AccessToken, GraphError> {
        if case .tokenExchangeRefused(let code, let description) = error, Self.refusalsEndingTheLogin.contains(code) {
            let reason = description ?? "The platform refused to renew the login (\(code))."
            await end(because: reason)
            return .failure(.loginEnded(reason))
        }
        if !forced, !token.isExpired(at: clock()) { return .success(token) }
        return .failure(GraphError(category: .transient, message: "The token could not be renewed now: \(error)"))
    }

    /// Closes the session for good after the platform ended its login, forgetting the token.
    private func end(because reason: String) async {
        closeReason = reason
        accessToken = nil
        try? await cache.clear(forKey: cacheKey)
        if state.successors.contains(.closed) { try? move(to: .closed) }
    }

    /// The token endpoint's answers that mean the refresh token will never work again.
    private static let refusalsEndingTheLogin: Set<String> = [
        OAuthErrorCode.invalidGrant.rawValue, OAuthErrorCode.invalidClient.rawValue, OAuthErrorCode.unauthorizedClient.rawValue,
    ]
}
