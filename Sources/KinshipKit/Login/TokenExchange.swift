import Foundation
import KinshipCore

/// The OAuth half of a login: trades the dialog's code for tokens and learns whose they are,
/// renews them with the refresh token, and gives the refresh token back at logout.
///
/// Native apps are public clients and send no secret; a web app's server (a confidential client)
/// passes its client secret, which never leaves that server.
public struct TokenExchange: Sendable {
    /// What a code exchange issued.
    public struct Issued: Sendable, Equatable {
        /// The access token, with its refresh token when the platform gave one.
        public var accessToken: AccessToken
        /// The signed id_token, when the login asked for scope `openid`; verify it with an
        /// ``AuthenticationTokenVerifier`` before trusting it.
        public var idToken: String?
    }

    let configuration: KinshipConfiguration
    let transport: any HTTPTransport
    let clientSecret: String?
    let clock: @Sendable () -> Date

    /// An exchange with the platform in `configuration`; `clientSecret` only for a confidential
    /// app's server. `clock` dates the tokens it issues.
    public init(
        configuration: KinshipConfiguration,
        transport: any HTTPTransport = SystemTransport(),
        clientSecret: String? = nil,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.transport = transport
        self.clientSecret = clientSecret
        self.clock = clock
    }

    /// Redeems `code` with its PKCE verifier and returns the tokens, their owner and permissions.
    /// Dates are whole seconds, as the platform counts them, so a cached token reads back equal.
    ///
    /// - Parameters:
    ///   - code: The code from the dialog's redirect.
    ///   - redirectURI: The redirect URI the dialog was opened with, exactly.
    ///   - verifier: The PKCE verifier whose challenge the dialog was opened with.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words.
    public func redeem(code: String, redirectURI: String, verifier: String) async throws(LoginError) -> Issued {
        try await issue([("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier)])
    }

    /// Asks the token endpoint for a login's tokens with `fields`, and learns whose they are.
    func issue(_ fields: [(String, String)]) async throws(LoginError) -> Issued {
        let issued = try await requestTokens(fields)
        let userID = try await ownerID(of: issued.accessToken)
        return Issued(accessToken: token(from: issued, userID: userID, previous: nil), idToken: issued.idToken)
    }

    /// Trades `token`'s refresh token for a new pair (RFC 6749 §6). The old refresh token stops
    /// working; the answer is the token to keep. Throws ``LoginError/tokenExchangeRefused(code:description:)``
    /// with `invalid_grant` when the login has ended (the app was removed, the password changed,
    /// the refresh token was revoked or lapsed).
    public func refresh(_ token: AccessToken) async throws(LoginError) -> AccessToken {
        guard let refreshToken = token.refreshToken else {
            throw .tokenExchangeRefused(code: OAuthErrorCode.invalidGrant.rawValue, description: "The token has no refresh token.")
        }
        let issued = try await requestTokens([("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
        return self.token(from: issued, userID: token.userID, previous: token)
    }

    /// Tells the platform to forget `token`'s refresh token and every token it issued (RFC 7009),
    /// so a logout leaves nothing usable behind. A token with no refresh token is revoked itself.
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words.
    public func revoke(_ token: AccessToken) async throws(LoginError) {
        var form = clientForm()
        form.append("token", token.refreshToken ?? token.tokenString)
        form.append("token_type_hint", token.refreshToken == nil ? "access_token" : "refresh_token")
        let response = try await send(formRequest(configuration.revocationURL, form))
        guard response.status == 200 else { throw Self.refusal(response) }
    }

    /// Posts `fields` to the token endpoint with the client's credentials; the answer, read.
    func requestTokens(_ fields: [(String, String)]) async throws(LoginError) -> TokenResponse {
        var form = clientForm()
        for (name, value) in fields { form.append(name, value) }
        let response = try await send(formRequest(configuration.tokenURL, form))
        guard response.status == 200 else { throw Self.refusal(response) }
        guard let issued = try? JSONDecoder().decode(TokenResponse.self, from: response.body) else {
            throw .unexpectedResponse(status: response.status, detail: "the token answer is not a token: \(response.body.excerpt)")
        }
        return issued
    }

    /// The token an answer describes. A refresh answer without a new refresh token keeps the old one.
    private func token(from issued: TokenResponse, userID: String, previous: AccessToken?) -> AccessToken {
        let now = Date(timeIntervalSince1970: clock().timeIntervalSince1970.rounded(.down))
        let refreshExpiry = issued.refreshTokenExpiresIn.map { now.addingTimeInterval(TimeInterval($0)) }
        return AccessToken(
            tokenString: issued.accessToken,
            appID: configuration.appID,
            userID: userID,
            permissions: Set(issued.grantedScopes),
            declinedPermissions: Set(issued.declinedScopes),
            expirationDate: now.addingTimeInterval(TimeInterval(issued.expiresIn)),
            refreshDate: now,
            refreshToken: issued.refreshToken ?? previous?.refreshToken,
            refreshTokenExpirationDate: issued.refreshToken == nil ? previous?.refreshTokenExpirationDate : refreshExpiry
        )
    }

    /// The id of the person a fresh token belongs to (`GET /me?fields=id`).
    private func ownerID(of token: String) async throws(LoginError) -> String {
        var url = URLComponents(url: configuration.graphURL("me"), resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "fields", value: "id")]
        let response = try await send(
            TransportRequest(
                url: url.url!,
                headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"],
                timeout: configuration.requestTimeout
            )
        )
        struct Me: Decodable { let id: String }
        guard response.status == 200, let me = try? JSONDecoder().decode(Me.self, from: response.body) else {
            throw .unexpectedResponse(status: response.status, detail: "/me did not name the token's owner: \(response.body.excerpt)")
        }
        return me.id
    }

    func clientForm() -> FormParameters {
        var form = FormParameters()
        form.append("client_id", configuration.appID)
        form.append("client_secret", clientSecret)
        return form
    }

    func formRequest(_ url: URL, _ form: FormParameters) -> TransportRequest {
        TransportRequest(
            method: "POST",
            url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(form.formEncoded.utf8),
            timeout: configuration.requestTimeout
        )
    }

    /// An OAuth error answer as a ``LoginError``.
    static func refusal(_ response: TransportResponse) -> LoginError {
        if let refusal = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body) {
            return .tokenExchangeRefused(code: refusal.error.rawValue, description: refusal.errorDescription)
        }
        return .unexpectedResponse(status: response.status, detail: response.body.excerpt)
    }

    func send(_ request: TransportRequest) async throws(LoginError) -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw .transport(error)
        }
    }
}
