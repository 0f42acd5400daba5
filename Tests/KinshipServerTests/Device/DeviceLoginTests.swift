import Foundation
import HTTPTypes
import KinshipCore
import KinshipServer
import Testing

@Suite("Device login (RFC 8628)", .timeLimit(.minutes(3)))
struct DeviceLoginTests {
    @Test(
        "start, pending, slow_down, the person logs in on /device and unticks email, the device gets its tokens once",
        arguments: TestEngine.enabled
    )
    func approved(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let (status, started) = try await server.postForm(
                "/oauth/device_authorization",
                ["client_id": app.id, "scope": "openid email user_friends"]
            )
            #expect(status == .ok)
            let userCode = try #require(started["user_code"] as? String)
            let deviceCode = try #require(started["device_code"] as? String)
            #expect(userCode.wholeMatch(of: /[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}/) != nil, "\(userCode)")
            let page = try #require(started["verification_uri"] as? String)
            #expect(page.hasSuffix("/device") && page.hasPrefix("http://127.0.0.1:"))
            #expect(started["verification_uri_complete"] as? String == page + "?user_code=" + userCode)
            #expect(started["expires_in"] as? Int == 600 && started["interval"] as? Int == 5)

            #expect(try await server.pollDevice(deviceCode, app: app).error == "authorization_pending")
            #expect(try await server.pollDevice(deviceCode, app: app).error == "slow_down", "polled again at once")
            server.clock.advance(by: 9)
            #expect(try await server.pollDevice(deviceCode, app: app).error == "slow_down", "the interval was 10 s; it is 15 s now")
            server.clock.advance(by: 15)
            #expect(try await server.pollDevice(deviceCode, app: app).error == "authorization_pending")

            let browser = server.browser()
            let path = "/device?user_code=" + userCode
            #expect(try await browser.get(path).location == "/login?next=" + FormParameters.encode(path), "log in first, come back")
            #expect(try await browser.logIn("ada@example.com", next: path).location == path)
            let codeForm = try await browser.get(path)
            #expect(codeForm.form(action: "/device")?.fields.first { $0.name == "user_code" }?.value == userCode)
            let consent = try await browser.submit(codeForm, action: "/device")
            #expect(consent.status == .ok && consent.body.contains(userCode), "the consent page shows the code to compare")
            #expect(consent.form(action: "/device/confirm")?.permissionCheckboxes == ["email", "user_friends"])
            let done = try await browser.submit(consent, action: "/device/confirm", button: ("action", "continue"), untick: ["email"])
            #expect(done.status == .ok && done.body.contains("logged in as Ada Lovelace"), "\(done.body)")

            server.clock.advance(by: 15)
            let tokens = try await server.pollDevice(deviceCode, app: app)
            #expect(tokens.status == .ok)
            #expect(Set(tokens.json["granted_scopes"] as? [String] ?? []) == ["public_profile", "user_friends"])
            #expect(tokens.json["declined_scopes"] as? [String] == ["email"])
            #expect((tokens.json["refresh_token"] as? String)?.hasPrefix("krt_") == true, "a public app refreshes")
            let idToken = try await server.verifiedIDToken(try #require(tokens.json["id_token"] as? String))
            #expect(idToken.sub == ada.id && idToken.nonce == nil && idToken.auth_time != nil)
            let (meStatus, me) = try await server.graph("/me", token: try #require(tokens.json["access_token"] as? String))
            #expect(meStatus == .ok && me["id"] as? String == ada.id)

            server.clock.advance(by: 10)
            let again = try await server.pollDevice(deviceCode, app: app)
            #expect(again.status == .badRequest && again.error == "invalid_grant", "a device code gives its tokens once")
        }
    }

    @Test("Cancel on /device answers access_denied; an old code expired_token; neither can be typed again", arguments: TestEngine.enabled)
    func deniedAndExpired(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")

            let denied = try await server.startDeviceLogin(app)
            let consent = try await browser.enterDeviceCode(denied.userCode)
            let cancelled = try await browser.submit(consent, action: "/device/confirm", button: ("action", "cancel"))
            #expect(cancelled.body.contains("Login cancelled"))
            #expect(try await server.pollDevice(denied.deviceCode, app: app).error == "access_denied")
            #expect(try await browser.enterDeviceCode(denied.userCode).status == .badRequest, "a denied code is no longer waiting")

            let old = try await server.startDeviceLogin(app)
            server.clock.advance(by: 601)
            #expect(try await server.pollDevice(old.deviceCode, app: app).error == "expired_token")
            let late = try await browser.enterDeviceCode(old.userCode)
            #expect(late.status == .badRequest && late.body.contains("No device is waiting for that code"))
        }
    }

    @Test("two polls of an approved code at once: one gets the tokens, the other invalid_grant", arguments: TestEngine.enabled)
    func redeemedOnce(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let started = try await server.startDeviceLogin(app)
            let consent = try await browser.enterDeviceCode(started.userCode)
            _ = try await browser.submit(consent, action: "/device/confirm", button: ("action", "continue"))
            let answers = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await server.pollDevice(started.deviceCode, app: app).status } }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(answers.filter { $0 == .ok }.count == 1, "\(answers)")
            #expect(answers.filter { $0 == .badRequest }.count == 7)
        }
    }

    @Test("typing codes on /device is limited per address, counted atomically under parallel guesses")
    func wrongCodesLimited() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let csrf = try #require(try await browser.get("/device").form(action: "/device")?.fields.first { $0.name == "csrf_token" }?.value)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for guess in 0..<16 {
                    group.addTask {
                        try await browser.post("/device", form: ["csrf_token": csrf, "user_code": "BCDF-GH\(guess % 2 == 0 ? "JK" : "JL")"]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .badRequest }.count == 10, "\(statuses)")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 6)
            let started = try await server.startDeviceLogin(app)
            let refused = try await browser.enterDeviceCode(started.userCode)
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] != nil, "the right code waits too")
            server.clock.advance(by: 15 * 60)
            let next = try await server.startDeviceLogin(app)
            #expect(try await browser.enterDeviceCode(next.userCode).status == .ok, "a new window")
        }
    }

    @Test("bad requests get RFC 6749 errors and clear pages, never a 500")
    func badInput() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let web = try await server.makeApp(name: "Web", confidential: true)
            let other = try await server.makeApp(name: "Other")
            let cases: [(FormParameters, HTTPResponse.Status, String)] = [
                (["client_id": app.id, "scope": "email launch_missiles"], .badRequest, "invalid_scope"),
                (["client_id": "404"], .unauthorized, "invalid_client"),
                (["client_id": web.id], .unauthorized, "invalid_client"),
                ([:], .badRequest, "invalid_request"),
            ]
            for (form, status, error) in cases {
                let (answered, json) = try await server.postForm("/oauth/device_authorization", form)
                #expect(answered == status && json["error"] as? String == error, "\(form.formEncoded): \(json)")
            }
            let (webStatus, webStarted) = try await server.postForm(
                "/oauth/device_authorization",
                ["client_id": web.id, "client_secret": try #require(web.secret)]
            )
            #expect(webStatus == .ok && webStarted["device_code"] is String, "a confidential app starts with its secret")

            let started = try await server.startDeviceLogin(app)
            let polls: [(FormParameters, String)] = [
                (["grant_type": GrantType.deviceCode, "client_id": app.id], "invalid_request"),
                (["grant_type": GrantType.deviceCode, "client_id": app.id, "device_code": "kdc_nonsense"], "invalid_grant"),
                (["grant_type": GrantType.deviceCode, "client_id": other.id, "device_code": started.deviceCode], "invalid_grant"),
                (["grant_type": GrantType.deviceCode, "client_id": app.id, "device_code": String(repeating: "x", count: 4000)], "invalid_grant"),
            ]
            for (form, error) in polls {
                let (answered, json) = try await server.postForm("/oauth/access_token", form)
                #expect(answered == .badRequest && json["error"] as? String == error, "\(json)")
            }

            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let hostile = try await browser.get("/device?user_code=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E")
            #expect(hostile.status == .ok && !hostile.body.contains("<script>alert(1)"))
            let noToken = try await browser.post("/device", form: ["user_code": started.userCode])
            #expect(noToken.status == .forbidden, "the code form carries a CSRF token")
            let malformed = try await browser.enterDeviceCode("AEIO-U123")
            #expect(malformed.status == .badRequest && malformed.body.contains("Codes are 8 letters"))
            let lowercase = try await browser.enterDeviceCode(started.userCode.lowercased().replacingOccurrences(of: "-", with: " "))
            #expect(lowercase.status == .ok, "case, spaces and dashes do not matter")
            let (discoveryStatus, discovery) = try await server.getJSON("/.well-known/openid-configuration")
            #expect(discoveryStatus == .ok)
            #expect((discovery["device_authorization_endpoint"] as? String)?.hasSuffix("/oauth/device_authorization") == true)
            #expect((discovery["grant_types_supported"] as? [String])?.contains(GrantType.deviceCode) == true)
        }
    }
}

extension LiveServer {
    /// Starts a device login for `app`; returns its codes.
    func startDeviceLogin(_ app: TestApp, scope: String = "email") async throws -> (deviceCode: String, userCode: String) {
        let (status, json) = try await postForm("/oauth/device_authorization", ["client_id": app.id, "scope": scope])
        #expect(status == .ok, "\(json)")
        return (try #require(json["device_code"] as? String), try #require(json["user_code"] as? String))
    }

    /// One poll of the token endpoint with a device code.
    func pollDevice(_ deviceCode: String, app: TestApp) async throws -> (status: HTTPResponse.Status, error: String?, json: [String: Any]) {
        let (status, json) = try await postForm(
            "/oauth/access_token",
            ["grant_type": GrantType.deviceCode, "client_id": app.id, "device_code": deviceCode]
        )
        return (status, json["error"] as? String, json)
    }
}

extension Browser {
    /// Types `userCode` on `/device` (the browser is logged in); returns the answer (the consent page when it is right).
    func enterDeviceCode(_ userCode: String) async throws -> Page {
        let form = try await get("/device")
        return try await post(
            "/device",
            form: [
                "csrf_token": try #require(form.form(action: "/device")?.fields.first { $0.name == "csrf_token" }?.value), "user_code": userCode,
            ]
        )
    }
}
