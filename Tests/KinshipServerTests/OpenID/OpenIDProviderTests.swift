import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import JWTKit
import KinshipCore
import KinshipServer
import NIOCore
import Testing

@Suite("OpenID Connect provider", .timeLimit(.minutes(3)))
struct OpenIDProviderTests {
    @Test("discovery names every endpoint and what is supported; the issuer is the same in both documents", arguments: TestEngine.enabled)
    func discovery(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let (status, json) = try await server.getJSON("/.well-known/openid-configuration")
            #expect(status == .ok)
            let issuer = try #require(json["issuer"] as? String)
            #expect(json["authorization_endpoint"] as? String == issuer + "/dialog/oauth")
            #expect(json["token_endpoint"] as? String == issuer + "/oauth/access_token")
            #expect(json["userinfo_endpoint"] as? String == issuer + "/userinfo")
            #expect(json["jwks_uri"] as? String == issuer + "/.well-known/jwks.json")
            #expect(json["revocation_endpoint"] as? String == issuer + "/oauth/revoke")
            #expect(json["response_types_supported"] as? [String] == ["code"])
            #expect(json["subject_types_supported"] as? [String] == ["public"])
            #expect((json["id_token_signing_alg_values_supported"] as? [String])?.first == "RS256")
            #expect(json["code_challenge_methods_supported"] as? [String] == ["S256"])
            #expect(
                Set(json["token_endpoint_auth_methods_supported"] as? [String] ?? [])
                    == ["client_secret_basic", "client_secret_post", "none"]
            )
            let scopes = Set(json["scopes_supported"] as? [String] ?? [])
            #expect(scopes.isSuperset(of: ["openid", "profile", "email", "public_profile", "user_friends"]))
            let claims = Set(json["claims_supported"] as? [String] ?? [])
            #expect(claims.isSuperset(of: ["sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "name", "email"]))
            #expect(json["request_uri_parameter_supported"] as? Bool == false)
            let (_, oauth) = try await server.getJSON("/.well-known/oauth-authorization-server")
            #expect(oauth["issuer"] as? String == issuer)
            let keys = try await server.publishedKeys()
            #expect(keys.kids.count == 1)
        }
    }

    @Test(
        "the id_token is signed with a published key and carries the login, the nonce and the granted claims",
        arguments: TestEngine.enabled
    )
    func idTokenClaims(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let app = try await server.makeApp()
            let loginTime = server.clock.now
            let json = try await server.openIDLogin(app, scope: [.openID, "profile", .email], nonce: "nonce-1")
            let idToken = try #require(json["id_token"] as? String)
            let accessToken = try #require(json["access_token"] as? String)
            #expect((json["scope"] as? String)?.split(separator: " ").contains("openid") == true)
            let claims = try await server.verifiedIDToken(idToken)
            let (_, discovery) = try await server.getJSON("/.well-known/openid-configuration")
            #expect(claims.iss == discovery["issuer"] as? String, "iss equals the discovery issuer byte for byte")
            #expect(claims.sub == user.id)
            #expect(claims.aud == app.id)
            #expect(claims.iat == server.clock.now)
            #expect(claims.exp == claims.iat + 3600)
            #expect(claims.auth_time == loginTime)
            #expect(claims.nonce == "nonce-1")
            let digest = Array(SHA256.hash(data: Data(accessToken.utf8)))
            #expect(claims.at_hash == Base64URL.encode(digest.prefix(16)))
            #expect(claims.name == "Ada Lovelace" && claims.given_name == "Ada" && claims.family_name == "Lovelace")
            #expect(claims.picture?.hasSuffix("/pictures/\(user.id)") == true)
            #expect(claims.email == "ada@example.com")
            #expect(claims.email_verified == false)
            let published = try await server.publishedKeys().kids
            #expect(try keyID(of: idToken) == published.first)
        }
    }

    @Test(
        "claims follow what was asked and granted: email unticked, profile not asked, no openid at all",
        arguments: TestEngine.enabled
    )
    func claimsAsGranted(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let unticked = try await server.openIDLogin(app, scope: [.openID, "profile", .email], untick: [.email])
            let withoutEmail = try await server.verifiedIDToken(try #require(unticked["id_token"] as? String))
            #expect(withoutEmail.email == nil && withoutEmail.email_verified == nil)
            #expect(withoutEmail.name == "Ada Lovelace")
            #expect((unticked["scope"] as? String)?.contains("email") == false)

            let bare = try await server.openIDLogin(app, scope: [.openID])
            let onlySubject = try await server.verifiedIDToken(try #require(bare["id_token"] as? String))
            #expect(onlySubject.name == nil && onlySubject.email == nil && onlySubject.picture == nil)

            let token = try await server.logInAndGetToken(app, scope: [.publicProfile, .email])
            #expect(!token.isEmpty)
            let pkce = PKCEPair.make()
            let response = try await server.authorize(server.browser(), app, scope: [.publicProfile], pkce: pkce)
            guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
            let (_, facebookStyle) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            #expect(facebookStyle["id_token"] == nil, "no openid, no id_token")
        }
    }

    @Test("nonce: required without PKCE, limited in length", arguments: TestEngine.enabled)
    func nonceRules(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp(confidential: true)
            let browser = server.browser()
            let withoutNonce = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: nil))
            #expect(withoutNonce.status == .seeOther)
            #expect(withoutNonce.location?.contains("error=invalid_request") == true)
            #expect(withoutNonce.location?.contains("nonce") == true)
            let huge = String(repeating: "n", count: AuthorizationRequest.maxNonceLength + 1)
            let tooLong = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: .init(nonce: huge)))
            #expect(tooLong.status == .seeOther)
            #expect(tooLong.location?.contains("error=invalid_request") == true)
            let fine = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: nil, openID: .init(nonce: "abc")))
            #expect(fine.status == .ok, "a nonce alone is enough for a confidential app")
        }
    }

    @Test("prompt=none answers at once: login_required, consent_required, or a code", arguments: TestEngine.enabled)
    func promptNone(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let silent = OpenIDParameters(nonce: "n", prompt: [.none])
            let anonymous = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: silent))
            #expect(anonymous.status == .seeOther)
            #expect(anonymous.location?.hasPrefix(loopbackRedirect + "?error=login_required") == true)
            #expect(anonymous.location?.contains("state=state-123") == true)

            _ = try await server.openIDLogin(app, scope: [.openID, "profile"], browser: browser)
            let pkce = PKCEPair.make()
            let again = try await browser.get(server.dialogURI(app, scope: [.openID, "profile"], pkce: pkce, openID: silent))
            #expect(again.status == .seeOther)
            let location = try #require(again.location)
            guard case .code(let code, let state) = try AuthorizationResponse(redirectURL: try #require(URL(string: location))) else {
                Issue.record("prompt=none after consent gives a code, got \(location)")
                return
            }
            #expect(state == "state-123")
            let (status, json) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            #expect(status == .ok && json["id_token"] != nil)

            let more = try await browser.get(server.dialogURI(app, scope: [.openID, .email], pkce: PKCEPair.make(), openID: silent))
            #expect(more.location?.hasPrefix(loopbackRedirect + "?error=consent_required") == true)
            let otherApp = try await server.makeApp(name: "Other")
            let firstTime = try await browser.get(server.dialogURI(otherApp, scope: [.openID], pkce: PKCEPair.make(), openID: silent))
            #expect(firstTime.location?.hasPrefix(loopbackRedirect + "?error=consent_required") == true)
        }
    }

    @Test("prompt=login and max_age ask for the password again, once; login_hint fills the form", arguments: TestEngine.enabled)
    func promptLoginAndMaxAge(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            _ = try await server.openIDLogin(app, scope: [.openID], browser: browser)

            let plain = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: .init(nonce: "n")))
            #expect(plain.form(action: "/dialog/oauth/confirm") != nil, "a logged-in browser goes straight to consent")

            server.clock.advance(by: 120)
            let reauthenticate = OpenIDParameters(nonce: "n", prompt: [.login], loginHint: "ada@example.com")
            let pkce = PKCEPair.make()
            let response = try await server.authorize(browser, app, scope: [.openID], pkce: pkce, openID: reauthenticate)
            guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
            let (_, json) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            let claims = try await server.verifiedIDToken(try #require(json["id_token"] as? String))
            #expect(claims.auth_time == server.clock.now, "auth_time is the new login's")

            let loginForm = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: reauthenticate))
            let field = loginForm.form(action: "/dialog/login")?.fields.first { $0.name == "login" }
            #expect(field?.value == "ada@example.com")

            server.clock.advance(by: 60)
            let fresh = OpenIDParameters(nonce: "n", maxAge: 300)
            let recent = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: fresh))
            #expect(recent.form(action: "/dialog/oauth/confirm") != nil, "a login 60 s old satisfies max_age=300")
            let strict = OpenIDParameters(nonce: "n", maxAge: 30)
            let old = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: strict))
            #expect(old.form(action: "/dialog/login") != nil, "a login 60 s old does not satisfy max_age=30")
            let silentOld = OpenIDParameters(nonce: "n", prompt: [.none], maxAge: 30)
            let refused = try await browser.get(server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: silentOld))
            #expect(refused.location?.contains("error=login_required") == true)
        }
    }

    @Test("bad OpenID parameters are reported to the app, never a 500", arguments: TestEngine.enabled)
    func badParameters(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            let browser = server.browser()
            let base = server.dialogURI(app, scope: [.openID], pkce: PKCEPair.make(), openID: .init(nonce: "n"))
            for extra in [
                "prompt=none%20login", "prompt=sometimes", "max_age=-1", "max_age=soon", "response_mode=fragment",
                "nonce=a&nonce=b",
            ] {
                let page = try await browser.get(base + "&" + extra)
                #expect(page.status == .seeOther, "\(extra)")
                #expect(page.location?.contains("error=invalid_request") == true, "\(extra): \(page.location ?? "")")
            }
        }
    }
}
