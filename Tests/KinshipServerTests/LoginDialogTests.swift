import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

@Suite("Login dialog", .timeLimit(.minutes(3)))
struct LoginDialogTests {
    @Test("whole login: form, consent with email unticked, code exchange with PKCE", arguments: TestEngine.enabled)
    func wholeLogin(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let pkce = PKCEPair.make()

            let loginPage = try await browser.get(server.dialogURI(app, scope: [.email, .userFriends], pkce: pkce))
            #expect(loginPage.status == .ok)
            #expect(loginPage.body.contains("Log in to continue to Demo"))
            #expect(loginPage.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            #expect(loginPage.form(action: "/dialog/login")?.fields.contains { $0.name == "csrf_token" && !$0.value.isEmpty } == true)

            let consent = try await server.consentPage(browser, app, scope: [.email, .userFriends], pkce: pkce)
            #expect(consent.body.contains("Demo would like to access your account"))
            #expect(consent.body.contains("Your email address"))
            let form = try #require(consent.form(action: "/dialog/oauth/confirm"))
            #expect(form.permissionCheckboxes == ["email", "user_friends"])
            #expect(form.fields.filter { $0.name == "permission" }.map(\.value) == ["email", "user_friends"], "ticked by default")
            let sessionCookie = try #require(browser.setCookieHeaders.first { $0.hasPrefix("kinship_session=") })
            #expect(sessionCookie.contains("HttpOnly"))
            #expect(sessionCookie.contains("SameSite=Lax"))

            let done = try await browser.submit(consent, action: "/dialog/oauth/confirm", button: ("action", "continue"), untick: ["email"])
            #expect(done.status == .seeOther)
            let response = try AuthorizationResponse(redirectURL: try #require(done.location.flatMap(URL.init(string:))))
            guard case .code(let code, let state) = response else {
                Issue.record("expected a code, got \(response)")
                return
            }
            #expect(state == "state-123")
            #expect(code.hasPrefix("kac_"))

            let (status, json) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            #expect(status == .ok)
            #expect(json["token_type"] as? String == "bearer")
            #expect(json["expires_in"] as? Int == 7200)
            #expect(json["granted_scopes"] as? [String] == ["public_profile", "user_friends"])
            #expect(json["declined_scopes"] as? [String] == ["email"])
            let token = try #require(json["access_token"] as? String)

            let info = try await server.debugToken(token, app: app)
            #expect(info.isValid)
            #expect(info.scopes == [.publicProfile, .userFriends])
            #expect(info.appID == app.id)
            #expect(info.type == "USER")
        }
    }

    @Test("Cancel sends the person back with access_denied and the state", arguments: TestEngine.enabled)
    func cancel(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let consent = try await server.consentPage(browser, app, scope: [.email], pkce: .make())
            let done = try await browser.submit(consent, action: "/dialog/oauth/confirm", button: ("action", "cancel"))
            #expect(done.status == .seeOther)
            let response = try AuthorizationResponse(redirectURL: try #require(done.location.flatMap(URL.init(string:))))
            #expect(response == .error(.userDenied, state: "state-123"))
            #expect(try await server.platform.users.list().count == 1)
        }
    }

    @Test("a redirect URI that does not match exactly gets an error page, never a redirect", arguments: TestEngine.enabled)
    func hostileRedirects(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp(redirectURIs: ["http://127.0.0.1/callback", "https://app.example.com/done"])
            let hostile = [
                "https://evil.example.com/callback", "https://app.example.com/done/../steal", "https://app.example.com/done?x=1",
                "https://app.example.com/done/", "https://app.example.com.evil.com/done", "http://app.example.com/done",
                "http://127.0.0.1:8080/callback/extra", "http://localhost:8080/callback", "http://127.0.0.1:8080/Callback",
                "kinship999://authorize", "javascript:alert(1)", "https://app.example.com/done#frag",
            ]
            for uri in hostile {
                let page = try await server.browser().get(server.dialogURI(app, scope: [], pkce: .make(), redirectURI: uri))
                #expect(page.status == .badRequest, "\(uri)")
                #expect(page.location == nil, "\(uri) must not redirect")
                #expect(page.body.contains("not registered"), "\(uri)")
            }
            let unknown = try await server.browser().get("/dialog/oauth?client_id=123&redirect_uri=https%3A%2F%2Fevil.example.com")
            #expect(unknown.status == .badRequest)
            #expect(unknown.location == nil)
            let incomplete = try await server.browser().get("/dialog/oauth?client_id=\(app.id)")
            #expect(incomplete.status == .badRequest)

            for allowed in [
                "http://127.0.0.1:1/callback", "http://127.0.0.1:65000/callback", "https://app.example.com/done",
                "kinship\(app.id)://authorize",
            ] {
                let page = try await server.browser().get(server.dialogURI(app, scope: [], pkce: .make(), redirectURI: allowed))
                #expect(page.status == .ok, "\(allowed)")
            }
        }
    }

    @Test("problems after the redirect URI is trusted are reported to the app", arguments: TestEngine.enabled)
    func redirectableProblems(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            func problem(_ uri: String) async throws -> AuthorizationError? {
                let page = try await server.browser().get(uri)
                #expect(page.status == .seeOther)
                guard let location = page.location, let url = URL(string: location),
                    case .error(let error, let state) = try AuthorizationResponse(redirectURL: url)
                else { return nil }
                #expect(state == "state-123")
                return error
            }
            #expect(try await problem(server.dialogURI(app, scope: [.email], pkce: nil))?.code == .invalidRequest, "public apps must use PKCE")
            #expect(try await problem(server.dialogURI(app, scope: ["read_mailbox"], pkce: .make()))?.code == .invalidScope)
            let plain = server.dialogURI(app, scope: [], pkce: .make()).replacingOccurrences(
                of: "code_challenge_method=S256",
                with: "code_challenge_method=plain"
            )
            #expect(try await problem(plain)?.code == .invalidRequest)
            let token = server.dialogURI(app, scope: [], pkce: .make()).replacingOccurrences(of: "response_type=code", with: "response_type=token")
            #expect(try await problem(token)?.code == .unsupportedResponseType)
        }
    }

    @Test("granted permissions are not asked again; declined ones only with auth_type=rerequest", arguments: TestEngine.enabled)
    func incrementalConsent(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            _ = try await server.authorize(browser, app, scope: [.email, .userFriends], untick: [.email], pkce: .make())

            let again = try await server.consentPage(browser, app, scope: [.email, .userFriends, .userBirthday], pkce: .make())
            #expect(again.form(action: "/dialog/oauth/confirm")?.permissionCheckboxes == ["user_birthday"])
            #expect(again.body.contains("Already shared with Demo: your friend list"))

            let rerequest = try await server.consentPage(browser, app, scope: [.email], pkce: .make(), authType: .rerequest)
            #expect(rerequest.form(action: "/dialog/oauth/confirm")?.permissionCheckboxes == ["email"])
            let pkce = PKCEPair.make()
            guard case .code(let code, _) = try await server.authorize(browser, app, scope: [.email], pkce: pkce, authType: .rerequest)
            else {
                Issue.record("no code")
                return
            }
            let (_, json) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            #expect(json["granted_scopes"] as? [String] == ["email", "public_profile", "user_friends"])
            #expect(json["declined_scopes"] as? [String] == [])
        }
    }

    @Test("a wrong password shows the form again with a message", arguments: TestEngine.enabled)
    func wrongPassword(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let page = try await browser.get(server.dialogURI(app, scope: [], pkce: .make()))
            var form = FormParameters()
            for field in try #require(page.form(action: "/dialog/login")).fields where field.name != "password" && field.name != "login" {
                form.append(field.name, field.value)
            }
            form.append("login", "ada")
            form.append("password", "not the password")
            let failed = try await browser.post("/dialog/login", form: form)
            #expect(failed.status == .unauthorized)
            #expect(failed.body.contains("The email, username or password is not right."))
            #expect(failed.body.contains(#"value="ada""#), "the login is kept")
            #expect(browser.cookies["kinship_session"] == nil)
        }
    }

    @Test("repeated failures are rate-limited per account, even for the right password", arguments: TestEngine.enabled)
    func rateLimitPerAccount(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.loginLimits = .init(perAccount: 3, perAddress: 100) }) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let statuses = try await attempts(server, browser, app, logins: Array(repeating: ("ada@example.com", "wrong password"), count: 4))
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
            let right = try await attempts(server, browser, app, logins: [("ADA@example.com", testPassword)])
            #expect(right == [.tooManyRequests])
        }
    }

    @Test("repeated failures are rate-limited per address across accounts", arguments: TestEngine.enabled)
    func rateLimitPerAddress(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.loginLimits = .init(perAccount: 100, perAddress: 3) }) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let statuses = try await attempts(
                server,
                browser,
                app,
                logins: [("a@example.com", "x"), ("b@example.com", "x"), ("c@example.com", "x"), ("ada@example.com", testPassword)]
            )
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
        }
    }

    private func attempts(
        _ server: LiveServer,
        _ browser: Browser,
        _ app: TestApp,
        logins: [(String, String)]
    ) async throws
        -> [HTTPResponse.Status]
    {
        let page = try await browser.get(server.dialogURI(app, scope: [], pkce: .make()))
        let fields = try #require(page.form(action: "/dialog/login")).fields.filter { $0.name != "login" && $0.name != "password" }
        var statuses: [HTTPResponse.Status] = []
        for (login, password) in logins {
            var form = FormParameters()
            for field in fields { form.append(field.name, field.value) }
            form.append("login", login)
            form.append("password", password)
            let response = try await browser.post("/dialog/login", form: form)
            statuses.append(response.status)
            if response.status == .tooManyRequests { #expect(response.headers[.retryAfter] != nil) }
        }
        return statuses
    }

    @Test("forms without a valid CSRF token change nothing", arguments: TestEngine.enabled)
    func csrf(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let request = AuthorizationRequest(
                clientID: app.id,
                redirectURI: loopbackRedirect,
                scope: [.email],
                state: "s",
                codeChallenge: PKCEPair.make().challenge
            )
            var login = request.parameters
            login.append("login", "ada@example.com")
            login.append("password", testPassword)
            login.append("csrf_token", "forged")
            let forgedLogin = try await browser.post("/dialog/login", form: login)
            #expect(forgedLogin.status == .forbidden)
            #expect(browser.cookies["kinship_session"] == nil)

            let consent = try await server.consentPage(browser, app, scope: [.email], pkce: .make())
            var confirm = FormParameters()
            for field in try #require(consent.form(action: "/dialog/oauth/confirm")).fields where field.name != "csrf_token" {
                confirm.append(field.name, field.value)
            }
            confirm.append("action", "continue")
            let forgedConsent = try await browser.post("/dialog/oauth/confirm", form: confirm)
            #expect(forgedConsent.status == .forbidden)
            #expect(forgedConsent.location == nil)
        }
    }

    @Test("logging out of the dialog shows the login form again", arguments: TestEngine.enabled)
    func logOut(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let consent = try await server.consentPage(browser, app, scope: [], pkce: .make())
            let out = try await browser.submit(consent, action: "/dialog/logout")
            #expect(out.status == .seeOther)
            #expect(browser.cookies["kinship_session"] == nil)
            let again = try await browser.get(try #require(out.location))
            #expect(again.form(action: "/dialog/login") != nil)
        }
    }

    @Test("oversized and non-form bodies are refused", arguments: TestEngine.enabled)
    func badBodies(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let big = try await server.browser().post("/dialog/login", form: ["login": String(repeating: "a", count: 20_000)])
            #expect(big.status == .contentTooLarge)
            let json = try await server.client.executeRequest(
                uri: "/dialog/login",
                method: .post,
                headers: [.contentType: "application/json"],
                body: .init(string: "{}")
            )
            #expect(json.status == .unsupportedMediaType)
        }
    }
}
