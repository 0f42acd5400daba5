import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

@Suite("debug_token and revocation", .timeLimit(.minutes(3)))
struct DebugAndRevocationTests {
    @Test("debug_token needs the app's own credentials and tells an app nothing about other apps' tokens", arguments: TestEngine.enabled)
    func debugToken(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let token = try await server.logInAndGetToken(app, scope: [.email])

            let info = try await server.debugToken(token, app: app)
            #expect(info.userID == user.id)
            #expect(info.application == "Demo")
            #expect((info.expiresAt ?? 0) > (info.issuedAt ?? .max))

            let foreign = try await server.debugToken(token, app: other)
            #expect(!foreign.isValid)
            #expect(foreign.userID == nil)
            #expect(foreign.error?.code == 190)

            let (badSecret, badJSON) = try await server.getJSON("/debug_token?input_token=\(token)&access_token=\(app.id)%7Cwrong")
            #expect(badSecret == .unauthorized)
            let error = try #require(badJSON["error"] as? [String: Any])
            #expect(error["code"] as? Int == 190)
            #expect(error["type"] as? String == "OAuthException")
            #expect(error["fbtrace_id"] is String)

            let (missing, missingJSON) = try await server.getJSON("/debug_token?access_token=\(app.id)%7C\(app.secret)")
            #expect(missing == .badRequest)
            #expect((missingJSON["error"] as? [String: Any])?["code"] as? Int == 100)
        }
    }

    @Test("a revoked token is invalid at once", arguments: TestEngine.enabled)
    func revoke(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let token = try await server.logInAndGetToken(app, scope: [])

            let (foreign, _) = try await server.postForm("/oauth/revoke", ["token": token, "client_id": other.id])
            #expect(foreign == .ok, "the answer does not reveal whose token it is")
            #expect(try await server.debugToken(token, app: app).isValid, "another app cannot revoke it")

            let (status, _) = try await server.postForm("/oauth/revoke", ["token": token, "client_id": app.id, "token_type_hint": "access_token"])
            #expect(status == .ok)
            let info = try await server.debugToken(token, app: app)
            #expect(!info.isValid)
            #expect(info.error?.subcode == GraphErrorCode.subcodeInvalidToken)

            let (exchange, exchangeJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "fb_exchange_token", "client_id": app.id, "client_secret": app.secret, "fb_exchange_token": token]
            )
            #expect(exchange == .badRequest)
            #expect(exchangeJSON["error"] as? String == "invalid_grant")

            let (unknown, _) = try await server.postForm("/oauth/revoke", ["token": "kat_unknown", "client_id": app.id])
            #expect(unknown == .ok)
            let (noToken, noTokenJSON) = try await server.postForm("/oauth/revoke", ["client_id": app.id])
            #expect(noToken == .badRequest)
            #expect(noTokenJSON["error"] as? String == "invalid_request")
        }
    }

    @Test("a revocation made through one server process holds in another", arguments: TestEngine.enabled)
    func revokeAcrossProcesses(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [])
            #expect(try await server.debugToken(token, app: app).isValid, "checked, and remembered, by the first process")
            #expect(try await server.graph("/me", token: token).0 == .ok)
            try await withSecondProcess(of: server, configure: { _ in }) { (otherProcess: LiveServer) async throws in
                #expect(try await otherProcess.debugToken(token, app: app).isValid)
                let (status, _) = try await otherProcess.postForm("/oauth/revoke", ["token": token, "client_id": app.id])
                #expect(status == .ok)
            }
            #expect(!(try await server.debugToken(token, app: app).isValid))
            #expect(try await server.graph("/me", token: token).0 == .unauthorized)
        }
    }
}
