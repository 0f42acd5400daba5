import Foundation
import JWTKit
import KinshipCore
import KinshipServer
import Testing

/// The claims of an id_token as a relying party reads them.
struct ReceivedIDToken: JWTPayload {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var auth_time: Int?
    var nonce: String?
    var at_hash: String?
    var name: String?
    var given_name: String?
    var family_name: String?
    var picture: String?
    var email: String?
    var email_verified: Bool?

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(exp))).verifyNotExpired()
    }
}

extension LiveServer {
    /// The published key set, loaded into jwt-kit as a relying party would.
    func publishedKeys() async throws -> (keys: JWTKeyCollection, kids: [String]) {
        let response = try await client.executeRequest(uri: "/.well-known/jwks.json", method: .get, headers: [:], body: nil)
        #expect(response.status == .ok)
        let json = String(decoding: Data(buffer: response.body), as: UTF8.self)
        let keys = try await JWTKeyCollection().add(jwksJSON: json)
        let set = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let kids = (set?["keys"] as? [[String: Any]] ?? []).compactMap { $0["kid"] as? String }
        return (keys, kids)
    }

    /// Verifies an id_token's signature against the published keys and returns its claims.
    func verifiedIDToken(_ token: String) async throws -> ReceivedIDToken {
        try await publishedKeys().keys.verify(token, as: ReceivedIDToken.self)
    }

    /// A login through the dialog with scope `openid` and more; returns the token response.
    func openIDLogin(
        _ app: TestApp,
        scope: [Permission],
        untick: [Permission] = [],
        nonce: String? = "n-0S6_WzA2Mj",
        browser: Browser? = nil
    ) async throws -> [String: Any] {
        let pkce = PKCEPair.make()
        let response = try await authorize(
            browser ?? self.browser(),
            app,
            scope: scope,
            untick: untick,
            pkce: pkce,
            openID: OpenIDParameters(nonce: nonce)
        )
        guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
        let (status, json) = try await exchange(code: code, app: app, verifier: pkce.verifier)
        #expect(status == .ok)
        return json
    }
}

/// The `kid` in a JWS header.
func keyID(of token: String) throws -> String? {
    let header = try #require(token.split(separator: ".").first)
    let data = try #require(Base64URL.decode(String(header)))
    return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["kid"] as? String
}
