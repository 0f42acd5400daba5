import Hummingbird
import KinshipCore
import Logging

extension TokenController {
    /// The tokens a finished login earns, for a code or a device code (`grantHash`, which the
    /// tokens remember so a replayed code can revoke them): an access token; a refresh token for
    /// public apps (no secret for a long-lived exchange: they stay logged in by refreshing) and for
    /// `offline_access`; an id_token when the login asked for `openid`.
    func issueTokens(
        for authorization: Authorization, login: CodeLogin, grantHash: String, client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    ) async throws -> Response {
        let requested = login.requested
        let accessToken: String
        var refreshToken: String?
        if requested.contains(.offlineAccess) || !client.app.isConfidential {
            let pair = try await platform.refreshTokens.start(
                .init(authorization: authorization, requestedScope: requested, authTime: login.authTime), codeHash: grantHash,
                lifetimes: refreshLifetimes)
            (accessToken, refreshToken) = (pair.accessToken, pair.refreshToken)
        } else {
            accessToken = try await platform.tokens.issue(
                authorization: authorization, lifetime: .short, seconds: configuration.shortTokenLifetime, codeHash: grantHash
            ).token
        }
        var idToken: String?
        if requested.contains(.openID) {
            guard let user = try await platform.users.find(id: authorization.userID) else {
                throw OAuthFailure(.invalidGrant, "The person this login was for no longer has an account.")
            }
            idToken = try await signIDToken(
                for: user, authorization, requested: requested, authTime: login.authTime, nonce: login.nonce, accessToken: accessToken)
        }
        context.logger.info("Token issued", metadata: [
            "user.id": "\(authorization.userID)", "app.id": "\(authorization.appID)", "id_token": "\(idToken != nil)",
            "refresh_token": "\(refreshToken != nil)",
        ])
        return tokenResponse(
            accessToken, seconds: configuration.shortTokenLifetime, authorization, openID: idToken != nil, idToken: idToken,
            refreshToken: refreshToken)
    }
}
