import Hummingbird
import KinshipCore
import Logging

extension TokenController {
    /// `grant_type=refresh_token` (RFC 6749 §6): a new access token and a new refresh token for a
    /// refresh token, which stops working. A rotated token used again within
    /// ``ServerConfiguration/refreshReuseGrace`` seconds is a concurrent refresh and is answered;
    /// later it means the token was copied, and the whole family is revoked (RFC 9700 §4.14.2).
    func refresh(
        _ form: FormParameters,
        _ client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    ) async throws
        -> Response
    {
        if client.app.isConfidential, !client.presentedSecret {
            throw OAuthFailure(.invalidClient, "\(client.app.name) is a confidential app: authenticate with its client secret.")
        }
        guard let token = form["refresh_token"], !token.isEmpty else { throw OAuthFailure(.invalidRequest, "refresh_token is missing.") }
        let appID = client.app.id
        let asked = form["scope"].map { Set(Permission.list(fromScope: $0).filter { !$0.isProtocolScope }) }
        let now = platform.clock.now
        let renewal = try await platform.refreshTokens.renew(tokenHash: Secrets.hash(token), lifetimes: refreshLifetimes) {
            record,
            person,
            authorization in
            guard record.appId == appID else { throw OAuthFailure(.invalidGrant, "The refresh token is not valid.") }
            let (authorization, person) = try Self.checkStillValid(record, person, authorization, now: now)
            if let widening = asked?.subtracting(authorization.granted), !widening.isEmpty {
                throw OAuthFailure(
                    .invalidScope,
                    "A refresh cannot widen the grant: \(Permission.scope(of: widening.sorted())) is not granted. Log in again to ask for it."
                )
            }
            return (.init(authorization: authorization, requestedScope: record.requested, authTime: record.authTime), person)
        }
        guard let renewal else { throw OAuthFailure(.invalidGrant, "The refresh token is not valid.") }
        let (record, user, login) = (renewal.record, renewal.person, renewal.login)
        let authorization = login.authorization
        let requested = login.requestedScope
        let pair: RefreshTokenStore.TokenPair
        if let renewed = renewal.pair {
            pair = renewed
        } else {
            // Someone used it first: a concurrent refresh within the grace window, or a copy.
            try await refuseReuse(record, context)
            pair = try await platform.refreshTokens.renewAgain(record, login, lifetimes: refreshLifetimes)
        }
        var idToken: String?
        if requested.contains(.openID) {
            idToken = try await signIDToken(
                for: user,
                authorization,
                requested: requested,
                authTime: record.authTime,
                nonce: nil,
                accessToken: pair.accessToken
            )
        }
        context.logger.info("Token refreshed", metadata: ["user.id": "\(record.userId)", "app.id": "\(record.appId)"])
        return tokenResponse(
            pair.accessToken,
            seconds: configuration.shortTokenLifetime,
            authorization,
            openID: idToken != nil,
            idToken: idToken,
            refreshToken: pair.refreshToken
        )
    }

    /// The login a refresh token renews and its person, as the refresh's write read them, when the
    /// person may still log in, their password is the one the login was made with, and the token
    /// and the login still stand at `now`.
    private static func checkStillValid(
        _ record: RefreshTokenRecord,
        _ person: UserRecord?,
        _ authorization: Authorization?,
        now: Int
    ) throws -> (Authorization, UserRecord) {
        guard let person else { throw OAuthFailure(.invalidGrant, "The account of this login was deleted.") }
        if person.suspendedAt != nil {
            throw OAuthFailure(.invalidGrant, "The account of this login is suspended by the platform's administrators.")
        }
        if person.passwordChangedAt > record.issuedAt {
            throw OAuthFailure(.invalidGrant, "The password of this account was changed; log in again.")
        }
        if record.revokedAt != nil {
            throw OAuthFailure(.invalidGrant, "This login was ended on the platform (its refresh token was revoked); log in again.")
        }
        guard record.expiresAt > now else {
            throw OAuthFailure(.invalidGrant, "This login lapsed after going unused too long; log in again.")
        }
        guard let authorization, authorization.revokedAt == nil else {
            throw OAuthFailure(.invalidGrant, "The app was removed from this account; log in again.")
        }
        return (authorization, person)
    }

    /// Answers a token that was used before: within the grace window it may be renewed again;
    /// otherwise its family is revoked and the request refused.
    private func refuseReuse(_ record: RefreshTokenRecord, _ context: KinshipRequestContext) async throws {
        let current = try await platform.refreshTokens.find(tokenHash: record.tokenHash)
        if current?.revokedAt != nil {
            throw OAuthFailure(.invalidGrant, "This login was ended on the platform (its refresh token was revoked); log in again.")
        }
        if let rotatedAt = current?.rotatedAt, platform.clock.now - rotatedAt <= configuration.refreshReuseGrace { return }
        try await platform.refreshTokens.revokeFamily(record.familyId)
        context.logger.warning(
            "A rotated refresh token was used again; every token of its login is revoked",
            metadata: ["user.id": "\(record.userId)", "app.id": "\(record.appId)"]
        )
        throw OAuthFailure(.invalidGrant, "The refresh token was already used, so every token of this login is revoked; log in again.")
    }
}
