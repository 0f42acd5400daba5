import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// Deleting an account: `GET /account/delete` says what happens; `POST /account/delete` (the
/// password required) deletes it and asks each app the person used to delete its data.
struct DeletionController: Sendable {
    let account: AccountPages
    let passwordLogin: PasswordLogin

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/account/delete") { request, _ in
            try await page(for: try await account.requireSignedIn(request), message: nil, status: .ok)
        }
        router.post("/account/delete") { request, context in try await delete(request, context) }
    }

    private func page(for person: SignedIn, message: String?, status: HTTPResponse.Status) async throws -> Response {
        let platform = account.platform
        var appNames: [String] = []
        for authorization in try await platform.authorizations.active(userID: person.user.id) {
            if let app = try await platform.apps.find(id: authorization.appID) { appNames.append(app.name) }
        }
        var values: [String: Any] = [
            "email": person.user.email, "friendships": Self.friendships(try await platform.friends.friendIDs(of: person.user.id).count),
            "hasApps": !appNames.isEmpty, "appNames": appNames.sorted().joined(separator: ", "),
            "madeApps": try await platform.apps.owned(by: person.user.id).map(\.name).joined(separator: ", "),
        ]
        if let message { values["message"] = message }
        return account.page(
            "delete-account",
            title: "Delete your account",
            section: "security",
            person: person,
            values: values,
            status: status
        )
    }

    /// "your friendship", "your 3 friendships".
    private static func friendships(_ count: Int) -> String {
        count == 1 ? "your friendship" : "your \(count) friendships"
    }

    private func delete(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        if let refusal = try await passwordLogin.confirm(
            form["password"] ?? "",
            of: person.user,
            address: context.clientAddress,
            logger: context.logger
        ) {
            return refusal.marking(try await page(for: person, message: refusal.message, status: refusal.status))
        }
        let callbacks = try await account.platform.users.delete(person.user)
        context.logger.notice("Account deleted", metadata: ["user.id": "\(person.user.id)", "callbacks.data_deletion": "\(callbacks ?? 0)"])
        var response = account.pages.done(
            heading: "Your account is deleted",
            message: "Everything of yours is gone from Kinship, and the apps you used are asked to delete what they hold about you.",
            link: ("Create a new account", "/signup")
        )
        response.setCookie(account.cookies.expiredSession())
        return response
    }
}
