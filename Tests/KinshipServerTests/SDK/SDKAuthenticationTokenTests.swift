import Foundation
import KinshipCore
import KinshipKit
import KinshipServer
import Testing

@Suite("KinshipKit verifies id_tokens (AuthenticationToken)", .timeLimit(.minutes(3)))
struct SDKAuthenticationTokenTests {
    @Test("an openid login returns an AuthenticationToken verified against the JWKS, with the claims granted")
    func openIDLogin() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let person = PersonAtBrowser(DialogPerson(server: server))
            let sdk = try await SDKClient(server: server, app: app, cache: MemoryTokenCache(), presenter: person)
            guard case .success(let login) = try await sdk.manager.logIn(permissions: [.openID, .email], nonce: "nonce-from-the-app") else {
                Issue.record("the login did not succeed")
                return
            }
            let authentication = try #require(login.authenticationToken)
            #expect(authentication.nonce == "nonce-from-the-app")
            #expect(authentication.claims.nonce == "nonce-from-the-app")
            #expect(authentication.claims.userID == ada.id && authentication.claims.appID == app.id)
            #expect(authentication.claims.issuer == sdk.configuration.serverURL.absoluteString)
            #expect(authentication.claims.email == "ada@example.com" && authentication.claims.name == "Ada Lovelace")
            #expect(try #require(person.dialogs.first).absoluteString.contains("nonce=nonce-from-the-app"))

            guard case .success(let plain) = try await sdk.manager.requestPermissions([.userFriends]) else {
                Issue.record("the second login did not succeed")
                return
            }
            #expect(plain.authenticationToken == nil, "no openid, no id_token")
        }
    }

    @Test("forged, foreign, replayed and expired id_tokens are refused; a rotated key is fetched when it first signs")
    func refusals() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let idToken = try #require(try await server.openIDLogin(app, scope: [.openID, .publicProfile], nonce: "n-1")["id_token"] as? String)
            let port = try #require(server.client.port)
            let configuration = KinshipConfiguration(serverURL: URL(string: "http://127.0.0.1:\(port)")!, appID: app.id)
            let verifier = AuthenticationTokenVerifier(configuration: configuration, clock: server.dateClock)

            #expect(try await verifier.verify(idToken, nonce: "n-1").claims.name == "Ada Lovelace")
            await #expect(throws: AuthenticationTokenError.rejected("its nonce is not the one this login sent")) {
                try await verifier.verify(idToken, nonce: "n-2")
            }
            await #expect(throws: AuthenticationTokenError.rejected("its at_hash does not match the access token issued with it")) {
                try await verifier.verify(idToken, nonce: "n-1", accessToken: "another-token")
            }
            var parts = idToken.split(separator: ".").map(String.init)
            let payload = try #require(Base64URL.decode(parts[1]))
            var claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
            claims["sub"] = "someone-else"
            parts[1] = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
            await #expect(throws: AuthenticationTokenError.rejected("its signature does not verify with the platform's key")) {
                try await verifier.verify(parts.joined(separator: "."), nonce: "n-1")
            }
            for garbage in ["", "a.b", "a.b.c", String(repeating: "x", count: 10_000)] {
                await #expect(throws: AuthenticationTokenError.self) { try await verifier.verify(garbage, nonce: nil) }
            }
            let foreign = AuthenticationTokenVerifier(
                configuration: KinshipConfiguration(serverURL: configuration.serverURL, appID: other.id),
                clock: server.dateClock
            )
            await #expect(throws: AuthenticationTokenError.rejected("it was issued to another app")) {
                try await foreign.verify(idToken, nonce: "n-1")
            }
            let elsewhere = AuthenticationTokenVerifier(
                configuration: KinshipConfiguration(serverURL: URL(string: "http://localhost:\(port)")!, appID: app.id),
                clock: server.dateClock
            )
            await #expect {
                try await elsewhere.verify(idToken, nonce: "n-1")
            } throws: { error in
                guard case .keysUnavailable(let reason)? = error as? AuthenticationTokenError else { return false }
                return reason.contains("issuer")
            }

            let keys = SigningKeys(platform: server.platform, secret: server.configuration.secret, idTokenLifetime: 3600)
            let rotated = try await keys.rotate(activationDelay: 0)
            server.clock.advance(by: 61)
            let next = try #require(try await server.openIDLogin(app, scope: [.openID], nonce: "n-3")["id_token"] as? String)
            #expect(try keyID(of: next) == rotated.kid)
            #expect(try await verifier.verify(next, nonce: "n-3").claims.appID == app.id, "the new key was fetched")

            server.clock.advance(by: server.configuration.idTokenLifetime + 61)
            await #expect {
                try await verifier.verify(next, nonce: "n-3")
            } throws: { error in
                guard case .rejected(let reason)? = error as? AuthenticationTokenError else { return false }
                return reason.hasPrefix("it expired at")
            }
        }
    }
}
