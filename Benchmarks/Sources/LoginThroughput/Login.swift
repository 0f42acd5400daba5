import AsyncHTTPClient
import BenchmarkBrowser
import Foundation

/// What one person does to log in to an app, with a browser of their own: the dialog (its login
/// form, then the consent page), the app's code exchange; or the device login (the device asks for
/// a code, the person logs in on `/device`, types it, consents; the device polls for its tokens).
struct Login: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let password = "kinship-demo"
    static let redirectURI = "http://127.0.0.1:9/callback"
    static let scope = "email,user_friends"

    let client: HTTPClient
    let base: String
    let clientID: String

    /// A full login through the dialog and the code exchange; returns the refresh token.
    func dialog(as email: String) async throws -> String {
        let browser = Visitor(client: client, base: base)
        let pkce = PKCE()
        let dialog =
            "/dialog/oauth?"
            + Visitor.encode([
                ("client_id", clientID), ("redirect_uri", Self.redirectURI), ("response_type", "code"), ("scope", Self.scope),
                ("state", "s"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
            ])
        let consentPath = try await logIn(browser, at: dialog, action: "/dialog/login", as: email, where: "the dialog")
        let consentPage = try await browser.get(consentPath)
        guard let consent = Page.fields(of: consentPage.body, action: "/dialog/oauth/confirm") else {
            throw Failure(description: "no consent page after logging in (HTTP \(consentPage.status))")
        }
        let answer = try await browser.post("/dialog/oauth/confirm", form: consent + [("action", "continue")])
        guard let location = answer.location, let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw Failure(description: "the consent gave no code (HTTP \(answer.status))") }
        let tokens = try await token([
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", Self.redirectURI), ("client_id", clientID),
            ("code_verifier", pkce.verifier),
        ])
        guard let refresh = tokens["refresh_token"] as? String else { throw Failure(description: "the exchange gave no refresh token") }
        return refresh
    }

    /// A device login finished by `email` in a browser; returns once the device holds its token.
    func device(as email: String) async throws {
        let device = Visitor(client: client, base: base)
        let started = try await device.post("/oauth/device_authorization", form: [("client_id", clientID), ("scope", Self.scope)])
        guard started.status == 200, let grant = try JSONSerialization.jsonObject(with: Data(started.body.utf8)) as? [String: Any],
            let deviceCode = grant["device_code"] as? String, let userCode = grant["user_code"] as? String
        else { throw Failure(description: "device_authorization: HTTP \(started.status) \(started.body.prefix(200))") }
        let interval = grant["interval"] as? Int ?? 5

        let browser = Visitor(client: client, base: base)
        let loginPath = "/login?" + Visitor.encode([("next", "/device?user_code=" + userCode)])
        let codePath = try await logIn(browser, at: loginPath, action: "/login", as: email, where: "the account login page")
        let codePage = try await browser.get(codePath)
        guard let codeFields = Page.fields(of: codePage.body, action: "/device") else {
            throw Failure(description: "/device showed no code form (HTTP \(codePage.status))")
        }
        let consentPage = try await browser.post("/device", form: codeFields)
        guard let consent = Page.fields(of: consentPage.body, action: "/device/confirm") else {
            throw Failure(description: "no consent page for the device code (HTTP \(consentPage.status))")
        }
        let done = try await browser.post("/device/confirm", form: consent + [("action", "continue")])
        guard done.status == 200 else { throw Failure(description: "the device consent: HTTP \(done.status)") }

        while true {
            try await Task.sleep(for: .seconds(interval))
            let poll = try await device.post(
                "/oauth/access_token",
                form: [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode), ("client_id", clientID)]
            )
            if poll.status == 200 { return }
            guard poll.body.contains("authorization_pending") else {
                throw Failure(description: "the device's poll: HTTP \(poll.status) \(poll.body.prefix(200))")
            }
        }
    }

    /// Rotates `refreshToken` once; returns the new one.
    func refresh(_ refreshToken: String) async throws -> String {
        let tokens = try await token([("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", clientID)])
        guard let next = tokens["refresh_token"] as? String else { throw Failure(description: "a refresh gave no new refresh token") }
        return next
    }

    private func token(_ form: [(String, String)]) async throws -> [String: Any] {
        let answer = try await Visitor(client: client, base: base).post("/oauth/access_token", form: form)
        guard answer.status == 200, let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any] else {
            throw Failure(description: "the token endpoint: HTTP \(answer.status) \(answer.body.prefix(200))")
        }
        return json
    }

    /// Opens `path`, fills in its login form (the one posting to `action`) as `email` and sends it;
    /// returns where the login redirects the browser.
    private func logIn(_ browser: Visitor, at path: String, action: String, as email: String, where page: String) async throws -> String {
        let loginPage = try await browser.get(path)
        guard let fields = Page.fields(of: loginPage.body, action: action) else {
            throw Failure(description: "\(page) showed no login form (HTTP \(loginPage.status))")
        }
        let filled = fields.map { name, value in
            switch name {
            case "login": (name, email)
            case "password": (name, Self.password)
            default: (name, value)
            }
        }
        let loggedIn = try await browser.post(action, form: filled)
        guard loggedIn.status == 303, let next = loggedIn.location else {
            throw Failure(description: "logging in as \(email) at \(page): HTTP \(loggedIn.status)")
        }
        return next
    }
}
