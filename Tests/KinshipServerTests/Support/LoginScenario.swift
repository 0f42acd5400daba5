import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

/// A PKCE verifier and its S256 challenge.
struct PKCEPair {
    let verifier: String
    let challenge: String

    static func make() -> PKCEPair {
        let verifier = (0..<3).map { _ in UUID().uuidString }.joined(separator: "-")
        let digest = Data(SHA256.hash(data: Data(verifier.utf8)))
        let challenge = digest.base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        return PKCEPair(verifier: verifier, challenge: challenge)
    }
}

/// The OpenID Connect parameters a test's dialog request carries.
struct OpenIDParameters: Sendable {
    var nonce: String?
    var prompt: [AuthorizationRequest.Prompt] = []
    var maxAge: Int?
    var loginHint: String?
}

/// An app registered for a test, with its secret.
struct TestApp: Sendable {
    let record: AppRecord
    let secret: String
    var id: String { record.id }
}

let testPassword = "correct horse battery"
let loopbackRedirect = "http://127.0.0.1:53121/callback"

extension LiveServer {
    func makeUser(
        name: String = "Ada Lovelace",
        email: String = "ada@example.com",
        username: String? = "ada"
    ) async throws
        -> UserRecord
    {
        try await platform.users.create(NewUser(name: name, email: email, password: testPassword, username: username))
    }

    func makeApp(
        name: String = "Demo",
        confidential: Bool = false,
        redirectURIs: [String] = ["http://127.0.0.1/callback"]
    )
        async throws -> TestApp
    {
        let (record, secret) = try await platform.apps.create(name: name, redirectURIs: redirectURIs, isConfidential: confidential)
        return TestApp(record: record, secret: secret)
    }

    /// The dialog URL (path and query) an app would open.
    func dialogURI(
        _ app: TestApp,
        scope: [Permission],
        state: String = "state-123",
        pkce: PKCEPair? = nil,
        redirectURI: String = loopbackRedirect,
        authType: AuthorizationRequest.AuthType? = nil,
        openID: OpenIDParameters = .init()
    ) -> String {
        let request = AuthorizationRequest(
            clientID: app.id,
            redirectURI: redirectURI,
            scope: scope,
            state: state,
            codeChallenge: pkce?.challenge,
            authType: authType,
            nonce: openID.nonce,
            prompt: openID.prompt,
            maxAge: openID.maxAge,
            loginHint: openID.loginHint
        )
        return "/dialog/oauth?" + request.parameters.formEncoded
    }

    /// Drives the dialog like a person: logs in if asked to, unticks `untick` on the consent page,
    /// presses Continue; returns the redirect the browser was sent to.
    func authorize(
        _ browser: Browser,
        _ app: TestApp,
        scope: [Permission],
        untick: [Permission] = [],
        pkce: PKCEPair?,
        login: String = "ada@example.com",
        password: String = testPassword,
        authType: AuthorizationRequest.AuthType? = nil,
        openID: OpenIDParameters = .init(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> AuthorizationResponse {
        var page = try await consentPage(
            browser,
            app,
            scope: scope,
            pkce: pkce,
            login: login,
            password: password,
            authType: authType,
            openID: openID
        )
        var done = try await browser.submit(page, action: "/dialog/oauth/confirm", button: ("action", "continue"), untick: untick.map(\.rawValue))
        while done.status == .ok, done.form(action: "/dialog/oauth/confirm") != nil {
            page = done
            done = try await browser.submit(page, action: "/dialog/oauth/confirm", button: ("action", "continue"), untick: untick.map(\.rawValue))
        }
        #expect(done.status == .seeOther, sourceLocation: sourceLocation)
        let location = try #require(done.location, sourceLocation: sourceLocation)
        #expect(location.hasPrefix(loopbackRedirect + "?"), sourceLocation: sourceLocation)
        return try AuthorizationResponse(redirectURL: try #require(URL(string: location)))
    }

    /// Opens the dialog and logs in when the login form shows; returns the consent page.
    func consentPage(
        _ browser: Browser,
        _ app: TestApp,
        scope: [Permission],
        pkce: PKCEPair?,
        login: String = "ada@example.com",
        password: String = testPassword,
        authType: AuthorizationRequest.AuthType? = nil,
        openID: OpenIDParameters = .init()
    ) async throws -> Page {
        let uri = dialogURI(app, scope: scope, pkce: pkce, authType: authType, openID: openID)
        var page = try await browser.get(uri)
        if let loginForm = page.form(action: "/dialog/login") {
            var parameters = FormParameters()
            for field in loginForm.fields {
                switch field.name {
                case "login": parameters.append("login", login)
                case "password": parameters.append("password", password)
                default: parameters.append(field.name, field.value)
                }
            }
            let loggedIn = try await browser.post("/dialog/login", form: parameters)
            #expect(loggedIn.status == .seeOther, "login failed: \(loggedIn.body)")
            page = try await browser.get(try #require(loggedIn.location))
        }
        #expect(page.status == .ok)
        return page
    }

    /// Posts a form to an endpoint and returns status and JSON.
    func postForm(_ uri: String, _ form: FormParameters, headers: HTTPFields = [:]) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        let response = try await client.executeRequest(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: form.formEncoded))
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    func getJSON(_ uri: String) async throws -> (HTTPResponse.Status, [String: Any]) {
        let response = try await client.executeRequest(uri: uri, method: .get, headers: [:], body: nil)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    /// Exchanges a code at the token endpoint.
    func exchange(
        code: String,
        app: TestApp,
        verifier: String?,
        redirectURI: String = loopbackRedirect,
        secret: String? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        var form: FormParameters = [
            "grant_type": "authorization_code", "code": code, "redirect_uri": redirectURI, "client_id": app.id,
        ]
        form.append("code_verifier", verifier)
        form.append("client_secret", secret)
        return try await postForm("/oauth/access_token", form)
    }

    /// A Graph call with a bearer token; returns the status and the JSON body.
    func graph(
        _ path: String,
        token: String?,
        method: HTTPRequest.Method = .get,
        form: FormParameters? = nil
    ) async throws -> (HTTPResponse.Status, [String: Any]) {
        var headers: HTTPFields = [:]
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: form.formEncoded)
        }
        let response = try await client.executeRequest(uri: path, method: method, headers: headers, body: body)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body))) as? [String: Any] ?? [:]
        return (response.status, object)
    }

    /// `debug_token` for a token, as the app's server would call it.
    func debugToken(_ token: String, app: TestApp) async throws -> TokenDebugInfo {
        let query: FormParameters = ["input_token": token, "access_token": "\(app.id)|\(app.secret)"]
        let response = try await client.executeRequest(uri: "/debug_token?" + query.formEncoded, method: .get, headers: [:], body: nil)
        #expect(response.status == .ok)
        struct Envelope: Decodable { let data: TokenDebugInfo }
        return try JSONDecoder().decode(Envelope.self, from: Data(buffer: response.body)).data
    }

    /// A full login and code exchange (with the app's secret when it is confidential); returns the
    /// access token.
    func logInAndGetToken(
        _ app: TestApp,
        scope: [Permission],
        untick: [Permission] = [],
        browser: Browser? = nil,
        login: String = "ada@example.com"
    ) async throws -> String {
        let pkce = PKCEPair.make()
        let response = try await authorize(browser ?? self.browser(), app, scope: scope, untick: untick, pkce: pkce, login: login)
        guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
        let (status, json) = try await exchange(
            code: code,
            app: app,
            verifier: pkce.verifier,
            secret: app.record.isConfidential ? app.secret : nil
        )
        #expect(status == .ok)
        return try #require(json["access_token"] as? String)
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self = Data(buffer.readableBytesView)
    }
}
