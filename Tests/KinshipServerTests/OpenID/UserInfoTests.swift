import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import NIOCore
import Testing

@Suite("UserInfo endpoint", .timeLimit(.minutes(3)))
struct UserInfoTests {
    @Test("GET and POST /userinfo give the claims the token's permissions allow", arguments: TestEngine.enabled)
    func claims(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let app = try await server.makeApp()
            let withEmail = try await server.logInAndGetToken(app, scope: [.publicProfile, .email])
            let (status, json) = try await server.graph("/userinfo", token: withEmail)
            #expect(status == .ok)
            #expect(json["sub"] as? String == user.id)
            #expect(json["name"] as? String == "Ada Lovelace")
            #expect(json["given_name"] as? String == "Ada")
            #expect(json["preferred_username"] as? String == "ada")
            #expect(json["email"] as? String == "ada@example.com")
            #expect(json["email_verified"] as? Bool == false)

            let (postStatus, posted) = try await server.postForm("/userinfo", ["access_token": withEmail])
            #expect(postStatus == .ok && posted["sub"] as? String == user.id)

            let otherApp = try await server.makeApp(name: "Other")
            let withoutEmail = try await server.logInAndGetToken(otherApp, scope: [.publicProfile, .email], untick: [.email])
            let (_, limited) = try await server.graph("/userinfo", token: withoutEmail)
            #expect(limited["sub"] as? String == user.id)
            #expect(limited["email"] == nil && limited["email_verified"] == nil)
        }
    }

    @Test("a missing, malformed, JWT-looking, revoked or expired token gets 401 with a Bearer challenge", arguments: TestEngine.enabled)
    func refusals(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let none = try await server.client.executeRequest(uri: "/userinfo", method: .get, headers: [:], body: nil)
            #expect(none.status == .unauthorized)
            #expect(none.headers[.wwwAuthenticate] == #"Bearer realm="kinship""#)
            for bad in ["kat_nonsense", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.", String(repeating: "x", count: 4000), "a\"b"] {
                let response = try await server.client.executeRequest(
                    uri: "/userinfo",
                    method: .get,
                    headers: [.authorization: "Bearer \(bad)"],
                    body: nil
                )
                #expect(response.status == .unauthorized, "\(bad.prefix(20))")
                #expect(response.headers[.wwwAuthenticate]?.contains(#"error="invalid_token""#) == true)
            }
            let token = try await server.logInAndGetToken(app, scope: [.publicProfile])
            server.clock.advance(by: 3 * 60 * 60)
            let expired = try await server.client.executeRequest(
                uri: "/userinfo",
                method: .get,
                headers: [.authorization: "Bearer \(token)"],
                body: nil
            )
            #expect(expired.status == .unauthorized)
            #expect(expired.headers[.wwwAuthenticate]?.contains("expired") == true)
        }
    }
}
