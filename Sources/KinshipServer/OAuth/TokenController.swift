import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `POST /oauth/access_token`: exchanges an authorization code (with its PKCE verifier) for a
/// token, a refresh token for a new pair (`grant_type=refresh_token`, in TokenController+Refresh),
/// a device code for the tokens of a device login (TokenController+Device), a token for a
/// long-lived one (`grant_type=fb_exchange_token`), or the app's secret for its app access token
/// (`grant_type=client_credentials`).
///
/// `GET` with the parameters in the query works too, as on Facebook, whose client libraries use it
/// (the request log never writes query strings; the answer is `no-store` either way).
struct TokenController: Sendable {
    let platform: Platform
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let clients: ClientAuthenticator
    let inspector: TokenInspector
    let issuer: Issuer
    let signingKeys: SigningKeys
    let appTokens: AppAccessTokens

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/oauth/access_token") { request, context in
            try await exchange(try await FormReader.readOAuthForm(request, limit: configuration.maxFormBytes), request, context)
        }
        router.get("/oauth/access_token") { request, context in
            try await exchange(FormReader.query(of: request), request, context)
        }
    }

    private func exchange(_ form: FormParameters, _ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let client = try await clients.authenticate(form, headers: request.headers).get()
        // Facebook's code exchange sends no grant_type; its client libraries rely on that.
        let grantType = form["grant_type"] ?? (form["code"] != nil ? "authorization_code" : nil)
        let response = try await grant(grantType, form, client, context)
        if let grantType, response.status == .ok { metrics.tokensIssued(grantType: grantType) }
        return response
    }

    private func grant(
        _ grantType: String?,
        _ form: FormParameters,
        _ client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    )
        async throws -> Response
    {
        switch grantType {
        case "authorization_code":
            return try await redeemCode(form, client, context)
        case "fb_exchange_token":
            return try await extend(form, client, context)
        case "refresh_token":
            return try await refresh(form, client, context)
        case GrantType.deviceCode:
            return try await redeemDeviceCode(form, client, context)
        case "client_credentials":
            return try issueAppToken(client, context)
        case nil, "":
            throw OAuthFailure(.invalidRequest, "grant_type is missing.")
        case let other?:
            throw OAuthFailure(
                .unsupportedGrantType,
                "grant_type \(other) is not supported; use authorization_code, refresh_token, \(GrantType.deviceCode), client_credentials or fb_exchange_token."
            )
        }
    }

    private func redeemCode(
        _ form: FormParameters,
        _ client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    )
        async throws -> Response
    {
        if client.app.isConfidential, !client.presentedSecret {
            throw OAuthFailure(.invalidClient, "\(client.app.name) is a confidential app: authenticate with its client secret.")
        }
        guard let code = form["code"], !code.isEmpty else { throw OAuthFailure(.invalidRequest, "code is missing.") }
        guard let redirectURI = form["redirect_uri"], !redirectURI.isEmpty else {
            throw OAuthFailure(.invalidRequest, "redirect_uri is missing.")
        }
        let verifier = form["code_verifier"]
        let now = platform.clock.now
        let exchanged: (record: AuthorizationCodeRecord, outcome: RedemptionStore.Outcome)?
        do {
            exchanged = try await platform.redemptions.redeemCode(hash: Secrets.hash(code)) { record in
                try Self.check(record, app: client.app, redirectURI: redirectURI, verifier: verifier, now: now)
                return redemption(of: .code(hash: record.codeHash), authorizationID: record.authorizationId, login: record.login, client: client)
            }
        } catch let replay as CodeReplay {
            try await refuseReplay(replay.record, context)
        }
        guard let (record, outcome) = exchanged else {
            throw OAuthFailure(.invalidGrant, "The authorization code is not valid.")
        }
        switch outcome {
        case .redeemed(let redeemed):
            return try await tokenResponse(for: redeemed, login: record.login, context)
        case .alreadySpent:
            try await refuseReplay(record, context)
        case .loginGone:
            throw OAuthFailure(.invalidGrant, "The person removed the app, or their account, after this code was issued.")
        }
    }

    /// Whether `record` may be exchanged by `app` with `redirectURI` and `verifier` at `now`.
    ///
    /// - Throws: ``CodeReplay`` when the code was exchanged before (its tokens are to be revoked);
    ///   ``OAuthFailure`` (`invalid_grant`, `invalid_request`) for any other mismatch.
    private static func check(_ record: AuthorizationCodeRecord, app: AppRecord, redirectURI: String, verifier: String?, now: Int) throws {
        // Only the app the code was issued to can trigger the replay rule: another app sending a
        // leaked code must not be able to revoke the first app's tokens.
        guard record.appId == app.id else {
            throw OAuthFailure(.invalidGrant, "The authorization code was issued to another app.")
        }
        if record.usedAt != nil { throw CodeReplay(record: record) }
        guard record.redirectUri == redirectURI else {
            throw OAuthFailure(.invalidGrant, "redirect_uri does not match the one the code was issued for.")
        }
        guard record.expiresAt > now else {
            throw OAuthFailure(.invalidGrant, "The authorization code has expired; log in again.")
        }
        switch (record.codeChallenge, verifier) {
        case (let challenge?, let verifier?):
            guard PKCE.isWellFormedVerifier(verifier), Secrets.verifierMatches(verifier, challenge: challenge) else {
                throw OAuthFailure(.invalidGrant, "code_verifier does not match the code_challenge.")
            }
        case (_?, nil):
            throw OAuthFailure(.invalidRequest, "code_verifier is missing.")
        case (nil, _?):
            throw OAuthFailure(.invalidGrant, "A code_verifier was sent for a code issued without a code_challenge.")
        case (nil, nil):
            break
        }
    }

    /// A code sent a second time: refused, and what its first use issued is revoked.
    private struct CodeReplay: Error {
        let record: AuthorizationCodeRecord
    }

    /// How long the tokens of a login that refreshes live.
    var refreshLifetimes: RefreshTokenStore.Lifetimes {
        .init(accessToken: configuration.shortTokenLifetime, refreshToken: configuration.refreshTokenLifetime)
    }

    /// An id_token for `user`: their claims as far as the login asked for them and they were granted.
    func signIDToken(
        for user: UserRecord,
        _ authorization: Authorization,
        requested: [Permission],
        authTime: Int?,
        nonce: String?,
        accessToken: String
    ) async throws -> String {
        let requested = Set(requested)
        let granted = Set(authorization.granted)
        let now = platform.clock.now
        let claims = StandardClaims(
            user: user,
            profile: requested.contains(.publicProfile) && granted.contains(.publicProfile),
            email: requested.contains(.email) && granted.contains(.email),
            baseURL: issuer.url
        )
        return try await signingKeys.sign(
            IDToken(
                issuer: issuer.url,
                subject: user.id,
                audience: authorization.appID,
                expiresAt: now + configuration.idTokenLifetime,
                issuedAt: now,
                authTime: authTime,
                nonce: nonce,
                accessToken: accessToken,
                claims: claims
            )
        )
    }

    /// A code used twice means it leaked: refuse, and revoke what its first use issued (RFC 6749 §4.1.2).
    private func refuseReplay(_ record: AuthorizationCodeRecord, _ context: KinshipRequestContext) async throws -> Never {
        try await platform.tokens.revokeTokens(issuedFromCodeHash: record.codeHash)
        context.logger.warning(
            "Authorization code replayed; its tokens were revoked",
            metadata: ["user.id": "\(record.userId)", "app.id": "\(record.appId)"]
        )
        throw OAuthFailure(.invalidGrant, "The authorization code has already been used; the tokens it issued are revoked.")
    }

    private func extend(
        _ form: FormParameters,
        _ client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    )
        async throws -> Response
    {
        guard client.presentedSecret else {
            throw OAuthFailure(.invalidClient, "Exchanging for a long-lived token needs the app's client secret.")
        }
        guard let token = form["fb_exchange_token"], !token.isEmpty else {
            throw OAuthFailure(.invalidRequest, "fb_exchange_token is missing.")
        }
        let grant: TokenInspector.Grant
        switch try await inspector.inspect(token) {
        case .success(let value): grant = value
        case .failure(let refusal): throw OAuthFailure(.invalidGrant, refusal.message)
        }
        guard grant.token.appId == client.app.id else {
            throw OAuthFailure(.invalidGrant, "The token was issued to another app.")
        }
        let issued = try await platform.tokens.issue(
            authorization: grant.authorization,
            lifetime: .long,
            seconds: configuration.longTokenLifetime,
            codeHash: grant.token.codeHash,
            refreshFamily: grant.token.refreshFamilyId
        )
        context.logger.info("Long-lived token issued", metadata: ["user.id": "\(grant.authorization.userID)", "app.id": "\(client.app.id)"])
        return tokenResponse(issued.token, seconds: configuration.longTokenLifetime, grant.authorization)
    }

    /// `grant_type=client_credentials`: the app's access token, for an app that sent its secret.
    private func issueAppToken(_ client: ClientAuthenticator.Client, _ context: KinshipRequestContext) throws -> Response {
        guard client.app.isConfidential else {
            throw OAuthFailure(.unauthorizedClient, "\(client.app.name) is a public app: it has no secret, so it has no app access token.")
        }
        guard client.presentedSecret else {
            throw OAuthFailure(.invalidClient, "An app access token needs the app's client secret.")
        }
        context.logger.info("App access token issued", metadata: ["app.id": "\(client.app.id)"])
        return JSONResponse.make(
            AppTokenResponse(accessToken: appTokens.token(for: client.app)),
            headers: [.cacheControl: "no-store", .pragma: "no-cache"]
        )
    }

    func tokenResponse(
        _ token: String,
        seconds: Int,
        _ authorization: Authorization,
        openID: Bool = false,
        idToken: String? = nil,
        refreshToken: String? = nil
    ) -> Response {
        let scope = ((openID ? [Permission.openID] : []) + authorization.granted).map(\.rawValue).joined(separator: " ")
        return JSONResponse.make(
            json: TokenResponse(
                accessToken: token,
                expiresIn: seconds,
                grantedScopes: authorization.granted,
                declinedScopes: authorization.declined,
                scope: scope,
                idToken: idToken,
                refreshToken: refreshToken,
                refreshTokenExpiresIn: configuration.refreshTokenLifetime
            ).json,
            headers: [.cacheControl: "no-store", .pragma: "no-cache"]
        )
    }
}
