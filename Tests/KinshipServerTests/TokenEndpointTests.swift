import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

@Suite("Token endpoint", .timeLimit(.minutes(3)))
struct TokenEndpointTests {
    /// Logs Ada in to `app` and returns the code with its verifier.
    private func code(_ server: LiveServer, _ app: TestApp, pkce: PKCEPair? = .make()) async throws -> (String, PKCEPair?) {
        let response = try await server.authorize(server.browser(), app, scope: [.email], pkce: pkce)
        guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
        return (code, pkce)
    }

    @Test("a wrong or missing verifier is refused and the code stays unused", arguments: TestEngine.enabled)
    func wrongVerifier(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (code, pkce) = try await code(server, app)
            let (status, json) = try await server.exchange(code: code, app: app, verifier: PKCEPair.make().verifier)
            #expect(status == .badRequest)
            #expect(json["error"] as? String == "invalid_grant")
            let (missingStatus, missing) = try await server.exchange(code: code, app: app, verifier: nil)
            #expect(missingStatus == .badRequest)
            #expect(missing["error"] as? String == "invalid_request")
            let (okStatus, _) = try await server.exchange(code: code, app: app, verifier: pkce?.verifier)
            #expect(okStatus == .ok)
        }
    }

    @Test("a replayed code fails and revokes the token its first use issued", arguments: TestEngine.enabled)
    func replay(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (code, pkce) = try await code(server, app)
            let (firstStatus, first) = try await server.exchange(code: code, app: app, verifier: pkce?.verifier)
            #expect(firstStatus == .ok)
            let token = try #require(first["access_token"] as? String)
            #expect(try await server.debugToken(token, app: app).isValid)

            let (secondStatus, second) = try await server.exchange(code: code, app: app, verifier: pkce?.verifier)
            #expect(secondStatus == .badRequest)
            #expect(second["error"] as? String == "invalid_grant")
            #expect((second["error_description"] as? String)?.contains("already been used") == true)
            let info = try await server.debugToken(token, app: app)
            #expect(!info.isValid)
            #expect(info.error?.subcode == GraphErrorCode.subcodeInvalidToken)
        }
    }

    @Test("a code is bound to its app and redirect URI, and expires", arguments: TestEngine.enabled)
    func binding(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.codeLifetime = 60 }) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let (code, pkce) = try await code(server, app)
            let (otherStatus, otherJSON) = try await server.exchange(code: code, app: other, verifier: pkce?.verifier)
            #expect(otherStatus == .badRequest)
            #expect(otherJSON["error"] as? String == "invalid_grant")
            let (redirectStatus, redirectJSON) = try await server.exchange(
                code: code,
                app: app,
                verifier: pkce?.verifier,
                redirectURI: "http://127.0.0.1:1/callback"
            )
            #expect(redirectStatus == .badRequest)
            #expect(redirectJSON["error"] as? String == "invalid_grant")
            server.clock.advance(by: 60)
            let (lateStatus, late) = try await server.exchange(code: code, app: app, verifier: pkce?.verifier)
            #expect(lateStatus == .badRequest)
            #expect((late["error_description"] as? String)?.contains("expired") == true)
            let (unknownStatus, unknown) = try await server.exchange(code: "kac_nothing", app: app, verifier: pkce?.verifier)
            #expect(unknownStatus == .badRequest)
            #expect(unknown["error"] as? String == "invalid_grant")
        }
    }

    @Test("confidential apps authenticate with their secret, in the form or with HTTP Basic", arguments: TestEngine.enabled)
    func confidentialClient(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp(confidential: true)
            let (code, _) = try await code(server, app, pkce: nil)
            let (noSecret, noSecretJSON) = try await server.exchange(code: code, app: app, verifier: nil)
            #expect(noSecret == .unauthorized)
            #expect(noSecretJSON["error"] as? String == "invalid_client")
            let (wrong, wrongJSON) = try await server.exchange(code: code, app: app, verifier: nil, secret: "not-the-secret")
            #expect(wrong == .unauthorized)
            #expect(wrongJSON["error"] as? String == "invalid_client")

            let basic = Data("\(app.id):\(app.secret)".utf8).base64EncodedString()
            let (status, json) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "authorization_code", "code": code, "redirect_uri": loopbackRedirect],
                headers: [.authorization: "Basic \(basic)"]
            )
            #expect(status == .ok)
            #expect(json["access_token"] is String)
        }
    }

    @Test("fb_exchange_token gives a 60-day token for the same login", arguments: TestEngine.enabled)
    func longLived(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email])
            let (denied, deniedJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "fb_exchange_token", "client_id": app.id, "fb_exchange_token": token]
            )
            #expect(denied == .unauthorized)
            #expect(deniedJSON["error"] as? String == "invalid_client")

            let (status, json) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "fb_exchange_token", "client_id": app.id, "client_secret": app.secret, "fb_exchange_token": token]
            )
            #expect(status == .ok)
            #expect(json["expires_in"] as? Int == 60 * 24 * 60 * 60)
            let longToken = try #require(json["access_token"] as? String)
            #expect(longToken != token)
            let info = try await server.debugToken(longToken, app: app)
            #expect(info.isValid)
            #expect(info.scopes == [.email, .publicProfile])
            #expect((info.expiresAt ?? 0) - (info.issuedAt ?? 0) == 60 * 24 * 60 * 60)

            let (bogus, bogusJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "fb_exchange_token", "client_id": app.id, "client_secret": app.secret, "fb_exchange_token": "kat_bogus"]
            )
            #expect(bogus == .badRequest)
            #expect(bogusJSON["error"] as? String == "invalid_grant")
        }
    }

    @Test("malformed token requests get RFC 6749 errors", arguments: TestEngine.enabled)
    func malformed(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            let (grant, grantJSON) = try await server.postForm("/oauth/access_token", ["grant_type": "password", "client_id": app.id])
            #expect(grant == .badRequest)
            #expect(grantJSON["error"] as? String == "unsupported_grant_type")
            let (noClient, noClientJSON) = try await server.postForm("/oauth/access_token", ["grant_type": "authorization_code"])
            #expect(noClient == .badRequest)
            #expect(noClientJSON["error"] as? String == "invalid_request")
            let (unknown, unknownJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "authorization_code", "client_id": "42", "code": "x", "redirect_uri": "y"]
            )
            #expect(unknown == .unauthorized)
            #expect(unknownJSON["error"] as? String == "invalid_client")
            let json = try await server.client.executeRequest(
                uri: "/oauth/access_token",
                method: .post,
                headers: [.contentType: "application/json"],
                body: .init(string: "{}")
            )
            #expect(json.status == .badRequest)
            let huge = try await server.postForm("/oauth/access_token", ["code": String(repeating: "x", count: 40_000)])
            #expect(huge.0 == .badRequest)
            #expect(huge.1["error"] as? String == "invalid_request")
            #expect(try await server.platform.users.list().isEmpty)
        }
    }
}
