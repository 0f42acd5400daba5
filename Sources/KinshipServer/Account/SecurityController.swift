import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// "Security": `GET /account/security` shows the password form and where the person is logged in;
/// `POST /account/password` changes the password (the current one required); `POST
/// /account/sessions` logs one browser out.
struct SecurityController: Sendable {
    let account: AccountPages
    let passwordLogin: PasswordLogin

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/account/security") { request, _ in
            let person = try await account.requireSignedIn(request)
            let notice = FormReader.query(of: request)["notice"].flatMap { Self.notices[$0] }
            return try await page(for: person, notice: notice, message: nil, status: .ok)
        }
        router.post("/account/password") { request, context in try await changePassword(request, context) }
        router.post("/account/sessions") { request, context in try await endSession(request, context) }
    }

    private static let notices = [
        "password": "Your password is changed. Every other browser is logged out, and apps will ask you to log in again.",
        "ended": "That browser is logged out.",
        "gone": "That browser was already logged out.",
    ]

    private func page(for person: SignedIn, notice: String?, message: String?, status: HTTPResponse.Status) async throws -> Response {
        let thisSession = Secrets.hash(person.session)
        let sessions = try await account.platform.browserSessions.list(userID: person.user.id).map { session -> [String: Any] in
            [
                "id": session.idHash, "isThis": session.idHash == thisSession,
                "browser": BrowserDescription.describe(userAgent: session.userAgent),
                "since": PageDate.text(session.createdAt), "address": session.clientAddress ?? "an unknown address",
            ]
        }
        var values: [String: Any] = [
            "sessions": sessions, "email": person.user.email,
            "minimumPassword": NewUser.passwordBytes.lowerBound, "maximumPassword": NewUser.passwordBytes.upperBound,
        ]
        if let message { values["message"] = message }
        return account.page("security", title: "Security", section: "security", person: person, values: values, notice: notice, status: status)
    }

    private func changePassword(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        let new = form["new_password"] ?? ""
        guard new == form["new_password_again"] else {
            return try await page(for: person, notice: nil, message: "The two new passwords are not the same.", status: .badRequest)
        }
        do {
            try NewUser.checkPassword(new)
        } catch {
            return try await page(for: person, notice: nil, message: error.description, status: .badRequest)
        }
        if let refusal = try await passwordLogin.confirm(
            form["current_password"] ?? "",
            of: person.user,
            address: context.clientAddress,
            logger: context.logger
        ) {
            return refusal.marking(try await page(for: person, notice: nil, message: refusal.message, status: refusal.status))
        }
        guard try await account.platform.users.changePassword(of: person.user, to: new, keepingSession: person.session) else {
            return try await page(
                for: person,
                notice: nil,
                message: "Your password was changed from somewhere else just now. Log in again with the new one.",
                status: .conflict
            )
        }
        context.logger.notice("Password changed; other sessions and earlier tokens ended", metadata: ["user.id": "\(person.user.id)"])
        return AccountPages.redirect(to: "/account/security?notice=password")
    }

    private func endSession(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        guard let id = form["session"], try await account.platform.browserSessions.end(idHash: id, of: person.user.id) else {
            return AccountPages.redirect(to: "/account/security?notice=gone")
        }
        context.logger.info("Browser session ended from the security page", metadata: ["user.id": "\(person.user.id)"])
        guard id != Secrets.hash(person.session) else {
            var response = AccountPages.redirect(to: "/login")
            response.setCookie(account.cookies.expiredSession())
            return response
        }
        return AccountPages.redirect(to: "/account/security?notice=ended")
    }
}
