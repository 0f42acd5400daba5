import Foundation
import KinshipCore

/// The OAuth half of a login: trades the dialog's code for a token and learns whose it is.
///
/// Native apps are public clients and send no secret; a web app's server (a confidential client)
/// passes its client secret, which never leaves that server.
public struct TokenExchange: Sendable {
    let configuration: KinshipConfiguration
    let transport: any HTTPTransport
    let clientSecret: String?

    /// An exchange with the platform in `configuration`; `clientSecret` only for a confidential
    /// app's server.
    public init(configuration: KinshipConfiguration, transport: any HTTPTransport = URLSessionTransport(), clientSecret: String? = nil) {
        self.configuration = configuration
        self.transport = transport
        self.clientSecret = clientSecret
    }

    /// Redeems `code` with its PKCE verifier and returns the token, its owner and its permissions.
    /// Dates are whole seconds, as the platform counts them, so a cached token reads back equal.
    public func redeem(code: String, redirectURI: String, verifier: String) async throws(LoginError) -> AccessToken {
        var form = FormParameters()
        form.append("grant_type", "authorization_code")
        form.append("client_id", configuration.appID)
        form.append("client_secret", clientSecret)
        form.append("code", code)
        form.append("redirect_uri", redirectURI)
        form.append("code_verifier", verifier)
        let response = try await send(
            TransportRequest(method: "POST", url: configuration.tokenURL,
                headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
                body: Data(form.formEncoded.utf8), timeout: configuration.requestTimeout))
        guard response.status == 200 else {
            if let refusal = try? JSONDecoder().decode(OAuthErrorBody.self, from: response.body) {
                throw .tokenExchangeRefused(code: refusal.error.rawValue, description: refusal.errorDescription)
            }
            throw .unexpectedResponse(status: response.status, detail: response.body.excerpt)
        }
        guard let issued = try? JSONDecoder().decode(TokenResponse.self, from: response.body) else {
            throw .unexpectedResponse(status: response.status, detail: "the token answer is not a token: \(response.body.excerpt)")
        }
        let userID = try await ownerID(of: issued.accessToken)
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        return AccessToken(
            tokenString: issued.accessToken, appID: configuration.appID, userID: userID,
            permissions: Set(issued.grantedScopes), declinedPermissions: Set(issued.declinedScopes),
            expirationDate: now.addingTimeInterval(TimeInterval(issued.expiresIn)), refreshDate: now)
    }

    /// The id of the person a fresh token belongs to (`GET /me?fields=id`).
    private func ownerID(of token: String) async throws(LoginError) -> String {
        var url = URLComponents(url: configuration.graphURL("me"), resolvingAgainstBaseURL: false)!
        url.queryItems = [URLQueryItem(name: "fields", value: "id")]
        let response = try await send(
            TransportRequest(url: url.url!, headers: ["Authorization": "Bearer \(token)", "Accept": "application/json"],
                timeout: configuration.requestTimeout))
        struct Me: Decodable { let id: String }
        guard response.status == 200, let me = try? JSONDecoder().decode(Me.self, from: response.body) else {
            throw .unexpectedResponse(status: response.status, detail: "/me did not name the token's owner: \(response.body.excerpt)")
        }
        return me.id
    }

    private func send(_ request: TransportRequest) async throws(LoginError) -> TransportResponse {
        do {
            return try await transport.send(request)
        } catch {
            throw .transport(error)
        }
    }
}
