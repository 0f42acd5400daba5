import Hummingbird
import KinshipCore
import Logging

extension TokenController {
    /// Spends a code or device code and stores the tokens its login earns, in one transaction: an
    /// access token, and a refresh token for public apps (no secret for a long-lived exchange: they
    /// stay logged in by refreshing) and for `offline_access`.
    func redeem(
        _ grant: OneTimeGrant,
        authorizationID: String,
        login: CodeLogin,
        client: ClientAuthenticator.Client
    ) async throws
        -> RedemptionStore.Outcome
    {
        try await platform.redemptions.redeem(redemption(of: grant, authorizationID: authorizationID, login: login, client: client))
    }

    /// The exchange of `grant` by `client`: what its tokens come with.
    func redemption(
        of grant: OneTimeGrant,
        authorizationID: String,
        login: CodeLogin,
        client: ClientAuthenticator.Client
    ) -> RedemptionStore.Request {
        .init(
            grant: grant,
            authorizationID: authorizationID,
            login: login,
            refreshes: login.requested.contains(.offlineAccess) || !client.app.isConfidential,
            readsPerson: login.requested.contains(.openID),
            lifetimes: refreshLifetimes
        )
    }

    /// The answer to a redeemed grant: its tokens, and an id_token when the login asked for `openid`.
    func tokenResponse(
        for redeemed: RedemptionStore.Redeemed,
        login: CodeLogin,
        _ context: KinshipRequestContext
    ) async throws
        -> Response
    {
        let authorization = redeemed.authorization
        var idToken: String?
        if let person = redeemed.person {
            idToken = try await signIDToken(
                for: person,
                authorization,
                requested: login.requested,
                authTime: login.authTime,
                nonce: login.nonce,
                accessToken: redeemed.accessToken
            )
        }
        context.logger.info(
            "Token issued",
            metadata: [
                "user.id": "\(authorization.userID)", "app.id": "\(authorization.appID)", "id_token": "\(idToken != nil)",
                "refresh_token": "\(redeemed.refreshToken != nil)",
            ]
        )
        return tokenResponse(
            redeemed.accessToken,
            seconds: configuration.shortTokenLifetime,
            authorization,
            openID: idToken != nil,
            idToken: idToken,
            refreshToken: redeemed.refreshToken
        )
    }
}
