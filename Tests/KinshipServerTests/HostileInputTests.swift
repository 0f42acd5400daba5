import Foundation
import HTTPTypes
import KinshipCore
import NIOCore
import Testing

@testable import KinshipServer

/// What an attacker found when they tried the platform, each kept from coming back.
@Suite("Hostile input", .timeLimit(.minutes(3)))
struct HostileInputTests {
    @Test("next=/\\t/evil.com and other control characters never leave the site after logging in", arguments: TestEngine.enabled)
    func openRedirect(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            for next in ["/\t/evil.com", "/\n/evil.com", "/\r/evil.com", "/\u{0}/evil.com", "/\u{1F}/evil.com", "/\\evil.com"] {
                #expect(try await server.browser().logIn("ada@example.com", next: next).location == "/account", "\(next.debugDescription)")
            }
            let page = try await server.browser().get("/login?next=%2F%09%2Fevil.com")
            #expect(page.body.contains(#"name="next" value="/account""#))
        }
    }

    @Test("a field list of 19,860 names is parsed in linear time, and more than 100 distinct fields are refused")
    func quadraticFields() throws {
        let repeated = Array(repeating: "id", count: 19_860).joined(separator: ",")
        let distinct = (0..<19_860).map { "f\($0)" }.joined(separator: ",")
        let parsed = try measuringThreadCPU {
            #expect(throws: GraphError.self) { try FieldSelection(parsing: distinct, default: []) }
            return try FieldSelection(parsing: repeated, default: [])
        }
        #expect(parsed.result.fields.map(\.name) == ["id"])
        #expect(parsed.cpu < .milliseconds(500), "it took 42 s of CPU when each name was checked against every earlier one")
        let hundred = (0..<100).map { "f\($0)" }.joined(separator: ",")
        #expect(try FieldSelection(parsing: hundred, default: []).fields.count == 100)
    }

    @Test("the authorization response names its issuer (RFC 9207)", arguments: TestEngine.enabled)
    func issuerInResponse(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (_, metadata) = try await server.getJSON("/.well-known/oauth-authorization-server")
            let issuer = try #require(metadata["issuer"] as? String)
            #expect(metadata["authorization_response_iss_parameter_supported"] as? Bool == true)
            let browser = server.browser()
            let consent = try await server.consentPage(browser, app, scope: [.email], pkce: .make())
            for action in ["continue", "cancel"] {
                let done = try await browser.submit(consent, action: "/dialog/oauth/confirm", button: ("action", action))
                let location = try #require(done.location)
                #expect(AuthorizationResponse.issuer(in: try #require(URL(string: location))) == issuer, "\(action): \(location)")
            }
        }
    }

    @Test("a code sent by another app is refused without revoking the tokens of the app it was issued to", arguments: TestEngine.enabled)
    func replayByAnotherApp(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let pkce = PKCEPair.make()
            guard case .code(let code, _) = try await server.authorize(server.browser(), app, scope: [], pkce: pkce) else {
                throw BrowserError.noRedirect(0)
            }
            let (_, first) = try await server.exchange(code: code, app: app, verifier: pkce.verifier)
            let token = try #require(first["access_token"] as? String)
            let (status, json) = try await server.exchange(code: code, app: other, verifier: pkce.verifier)
            #expect(status == .badRequest)
            #expect((json["error_description"] as? String)?.contains("another app") == true)
            #expect(try await server.debugToken(token, app: app).isValid, "only the code's own app can set off the replay rule")
        }
    }

    @Test("loopback redirect URIs with port 0, 99999 or an empty port are refused", arguments: TestEngine.enabled)
    func loopbackPorts(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            for bad in [
                "http://127.0.0.1:0/callback", "http://127.0.0.1:99999/callback", "http://127.0.0.1:/callback",
                "http://[::1]:65536/callback", "https://app.example.com:08x/cb",
            ] {
                await #expect(throws: AppError.self, "\(bad)") {
                    try await server.platform.apps.create(name: "Bad", redirectURIs: [bad], isConfidential: false)
                }
            }
            let app = try await server.makeApp()
            for bad in ["http://127.0.0.1:0/callback", "http://127.0.0.1:99999/callback", "http://127.0.0.1:/callback"] {
                let page = try await server.browser().get(server.dialogURI(app, scope: [], pkce: .make(), redirectURI: bad))
                #expect(page.status == .badRequest, "\(bad)")
                #expect(page.location == nil, "\(bad)")
            }
            #expect(
                try await server.browser().get(server.dialogURI(app, scope: [], pkce: .make(), redirectURI: "http://127.0.0.1:65535/callback")).status
                    == .ok
            )
        }
    }

    @Test(
        "a dialog parameter sent twice is refused (RFC 6749 §3.1): a page for the redirect URI, a redirect otherwise",
        arguments: TestEngine.enabled
    )
    func repeatedParameters(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            let uri = server.dialogURI(app, scope: [.email], pkce: .make())
            let twiceRedirect = try await server.browser().get(uri + "&redirect_uri=" + FormParameters.encode("http://127.0.0.1:9/callback"))
            #expect(twiceRedirect.status == .badRequest)
            #expect(twiceRedirect.location == nil)
            let twiceClient = try await server.browser().get(uri + "&client_id=" + app.id)
            #expect(twiceClient.status == .badRequest)
            let twiceState = try await server.browser().get(uri + "&state=other")
            #expect(twiceState.status == .seeOther)
            let location = try #require(twiceState.location)
            guard case .error(let error, _) = try AuthorizationResponse(redirectURL: try #require(URL(string: location))) else {
                Issue.record("expected an error redirect, got \(location)")
                return
            }
            #expect(error.code == .invalidRequest && error.description?.contains("state") == true)
        }
    }

    @Test("finding someone by their exact email works only when they allow it", arguments: TestEngine.enabled)
    func emailSearchIsOptIn(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: nil)
            let ada = server.browser()
            _ = try await ada.logIn("ada@example.com")
            #expect(!(try await ada.get("/account/friends?q=grace%40example.com").body.contains("Grace Hopper")))
            #expect(try await ada.get("/account/friends?q=grace").body.contains("Grace Hopper"), "a name search still finds her")

            let gracesBrowser = server.browser()
            _ = try await gracesBrowser.logIn("grace@example.com")
            let csrf = try #require(try await gracesBrowser.get("/account").csrfToken)
            let saved = try await gracesBrowser.post(
                "/account/profile",
                form: [
                    "csrf_token": csrf, "name": "Grace Hopper", "findable_by_email": "on",
                ]
            )
            #expect(saved.status == .seeOther)
            #expect(try await server.platform.users.find(id: grace.id)?.isFindableByEmail == true)
            #expect(try await ada.get("/account/friends?q=grace%40example.com").body.contains("Grace Hopper"))
        }
    }

    @Test("a picture upload of 20,000 parts is refused at once")
    func manyMultipartParts() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let csrf = try #require(try await browser.get("/account").csrfToken)
            let boundary = "b"
            var body = Data("--b\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(csrf)\r\n".utf8)
            for index in 0..<20_000 {
                body.append(Data("--b\r\nContent-Disposition: form-data; name=\"x\(index)\"\r\n\r\n1\r\n".utf8))
            }
            body.append(Data("--b--\r\n".utf8))
            let page = try await browser.send(
                "/account/picture",
                method: .post,
                headers: [.contentType: "multipart/form-data; boundary=\(boundary)"],
                body: ByteBuffer(bytes: body)
            )
            #expect(page.status == .badRequest)
            let parse = measuringThreadCPU {
                #expect(throws: MultipartForm.Failure.tooManyParts(limit: ProfileController.maximumParts)) {
                    try MultipartForm(parsing: ByteBuffer(bytes: body), boundary: boundary, maximumParts: ProfileController.maximumParts)
                }
            }
            #expect(parse.cpu < .milliseconds(100), "decoding every part took 7 s")
        }
    }

    @Test("a part header name with a byte above 127 is refused, and the server stays up (found by fuzzing: MultipartKit stopped the process)")
    func nonASCIIPartHeaderName() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let csrf = try #require(try await browser.get("/account").csrfToken)
            var body = Data("--b\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(csrf)\r\n--b\r\nX".utf8)
            body += Data([0xFF]) + Data(": y\r\n\r\nz\r\n--b--\r\n".utf8)
            let page = try await browser.send(
                "/account/picture",
                method: .post,
                headers: [.contentType: "multipart/form-data; boundary=b"],
                body: ByteBuffer(bytes: body)
            )
            #expect(page.status == .badRequest)
            #expect(try await server.browser().get("/healthz").status == .ok, "the server is still there")
        }
    }

    @Test("the Graph link field leads to the person's public page", arguments: TestEngine.enabled)
    func profileLink(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: nil)
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [])
            let (_, me) = try await server.graph("/me?fields=link", token: token)
            let link = try #require(me["link"] as? String)
            let path = try #require(URLComponents(string: link)?.path)
            #expect(path == "/people/\(ada.id)")
            let anonymous = try await server.browser().get(path)
            #expect(anonymous.status == .ok && anonymous.body.contains("Ada Lovelace"))
            let gracesBrowser = server.browser()
            _ = try await gracesBrowser.logIn("grace@example.com")
            let visit = try await gracesBrowser.get(path)
            #expect(visit.body.contains("Add Ada Lovelace as a friend"))
            let csrf = try #require(visit.csrfToken)
            _ = try await gracesBrowser.post("/account/friends", form: ["csrf_token": csrf, "action": "request", "user_id": ada.id])
            #expect(try await gracesBrowser.get(path).body.contains("the request is waiting"))
            #expect(try await server.platform.friends.incomingRequests(for: ada.id).map(\.fromUserID) == [grace.id])
            #expect(try await server.browser().get("/people/404").status == .notFound)
        }
    }
}
