import BenchmarkBrowser
import Foundation

/// A person of the storm: signs up once, then keeps writing, each write timed.
final class Person: @unchecked Sendable {
    enum Failure: Error, CustomStringConvertible {
        case unexpected(String, status: Int)

        var description: String {
            switch self {
            case .unexpected(let step, let status): "\(step): HTTP \(status)"
            }
        }
    }

    static let password = "storm password 1"

    let visitor: Visitor
    let email: String
    let clientID: String
    private(set) var userID = ""
    private var friendsCSRF = ""
    private var pendingCode: (code: String, verifier: String)?
    private var asked = false

    init(visitor: Visitor, email: String, clientID: String) {
        self.visitor = visitor
        self.email = email
        self.clientID = clientID
    }

    /// Signs up (and stays logged in); `timing` receives the POST's duration.
    func signUp(timing: (Duration) -> Void) async throws {
        let form = try await visitor.get("/signup")
        guard let token = Page.csrfToken(form.body) else { throw Failure.unexpected("sign-up form", status: form.status) }
        let started = ContinuousClock.now
        let answer = try await visitor.post(
            "/signup",
            form: [
                ("csrf_token", token), ("name", "Storm " + email), ("email", email), ("password", Self.password),
                ("password_again", Self.password),
            ]
        )
        timing(ContinuousClock.now - started)
        guard answer.status == 303 else { throw Failure.unexpected("sign-up", status: answer.status) }
        let profile = try await visitor.get("/account")
        userID = profile.body.firstMatch(of: /\/pictures\/(\d+)/).map { String($0.1) } ?? ""
        friendsCSRF = Page.csrfToken(profile.body) ?? ""
    }

    /// Logs in again on the account pages (a bcrypt check).
    func logIn(timing: (Duration) -> Void) async throws {
        visitor.forgetCookies()
        let form = try await visitor.get("/login")
        guard let token = Page.csrfToken(form.body) else { throw Failure.unexpected("login form", status: form.status) }
        let started = ContinuousClock.now
        let answer = try await visitor.post("/login", form: [("csrf_token", token), ("login", email), ("password", Self.password)])
        timing(ContinuousClock.now - started)
        guard answer.status == 303 else { throw Failure.unexpected("login", status: answer.status) }
        friendsCSRF = Page.csrfToken(try await visitor.get("/account").body) ?? ""
    }

    /// Consents on the dialog; keeps the code for the next exchange.
    func consent(timing: (Duration) -> Void) async throws {
        let pkce = PKCE()
        let dialog =
            "/dialog/oauth?"
            + Visitor.encode([
                ("client_id", clientID), ("redirect_uri", "http://127.0.0.1:9/callback"), ("response_type", "code"),
                ("scope", "email,user_friends"), ("state", "s"), ("code_challenge", pkce.challenge), ("code_challenge_method", "S256"),
            ])
        let page = try await visitor.get(dialog)
        guard let fields = Page.fields(of: page.body, action: "/dialog/oauth/confirm") else {
            throw Failure.unexpected("consent page", status: page.status)
        }
        let started = ContinuousClock.now
        let answer = try await visitor.post("/dialog/oauth/confirm", form: fields + [("action", "continue")])
        timing(ContinuousClock.now - started)
        guard answer.status == 303, let location = answer.location,
            let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
        else { throw Failure.unexpected("consent", status: answer.status) }
        pendingCode = (code, pkce.verifier)
    }

    /// Exchanges the code the last consent gave for a token.
    func exchange(timing: (Duration) -> Void) async throws {
        guard let (code, verifier) = pendingCode else { return }
        pendingCode = nil
        let started = ContinuousClock.now
        let answer = try await visitor.post(
            "/oauth/access_token",
            form: [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "http://127.0.0.1:9/callback"),
                ("client_id", clientID), ("code_verifier", verifier),
            ]
        )
        timing(ContinuousClock.now - started)
        guard answer.status == 200 else { throw Failure.unexpected("token exchange", status: answer.status) }
    }

    /// Asks `other` to be friends, or withdraws the request asked last time.
    func toggleFriendRequest(to other: String, timing: (Duration) -> Void) async throws {
        let started = ContinuousClock.now
        let answer = try await visitor.post(
            "/account/friends",
            form: [
                ("csrf_token", friendsCSRF), ("action", asked ? "cancel" : "request"), ("user_id", other),
            ]
        )
        timing(ContinuousClock.now - started)
        guard answer.status == 303 else { throw Failure.unexpected("friend request", status: answer.status) }
        asked.toggle()
    }
}
