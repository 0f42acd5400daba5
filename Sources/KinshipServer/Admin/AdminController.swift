import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `/admin`, for the platform's administrators only: every app (with its owner and how many people
/// use it) and every person (searchable), and suspending a person or lifting it. Anyone else gets
/// a 404, so the page's existence tells nothing.
struct AdminController: Sendable {
    let account: AccountPages

    /// How many people one page lists; the search narrows it down.
    static let peoplePerPage = 100

    private var platform: Platform { account.platform }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/admin") { request, _ in try await show(request) }
        router.post("/admin/people") { request, context in try await act(request, context) }
    }

    private static let notices = [
        "suspended": "The account is suspended: its tokens and sessions stopped, and it cannot log in.",
        "lifted": "The suspension is lifted: the person may log in again.",
        "unchanged": "Nothing changed: the account was already like that.",
        "app-deleted": "The app is deleted. Every token it held stopped working.",
    ]

    private func requireAdmin(_ request: Request) async throws -> SignedIn {
        let person = try await account.requireSignedIn(request)
        guard person.user.isAdmin else {
            throw EarlyAnswer(response: account.pages.error(status: .notFound, heading: "Page not found", message: "There is no page here."))
        }
        return person
    }

    private func show(_ request: Request) async throws -> Response {
        let person = try await requireAdmin(request)
        let query = FormReader.query(of: request)
        let search = String((query["q"] ?? "").prefix(100))
        let people = try await platform.users.search(search, limit: Self.peoplePerPage).map { user -> [String: Any] in
            [
                "id": user.id, "name": user.name, "email": user.email, "isAdmin": user.isAdmin, "isSuspended": user.suspendedAt != nil,
                "isMe": user.id == person.user.id, "joined": PageDate.text(user.createdAt),
            ]
        }
        let all = try await platform.apps.list()
        let counts = try await platform.apps.userCounts(appIDs: all.map(\.id))
        var names: [String: String] = [:]
        var apps: [[String: Any]] = []
        for app in all {
            var owner = "an operator (kinship apps create)"
            if let ownerID = app.ownerID {
                if names[ownerID] == nil { names[ownerID] = try await platform.users.find(id: ownerID)?.name }
                owner = names[ownerID] ?? ownerID
            }
            apps.append(["id": app.id, "name": app.name, "owner": owner, "people": counts[app.id] ?? 0])
        }
        return account.page(
            "admin",
            title: "Administration",
            section: "admin",
            person: person,
            values: [
                "people": people, "search": search, "apps": apps, "full": people.count == Self.peoplePerPage,
                "peoplePerPage": Self.peoplePerPage,
            ],
            notice: query["notice"].flatMap { Self.notices[$0] }
        )
    }

    private func act(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await requireAdmin(request)
        let form = try await account.readForm(request, of: person)
        guard let userID = form["user_id"], userID != person.user.id, let action = form["action"], ["suspend", "lift"].contains(action)
        else {
            return account.pages.error(
                status: .badRequest,
                heading: "Unknown request",
                message: "The form must name another person and say suspend or lift."
            )
        }
        let changed =
            action == "suspend"
            ? try await platform.users.suspend(userID: userID) : try await platform.users.lift(userID: userID)
        context.logger.notice(
            action == "suspend" ? "Account suspended by an administrator" : "Suspension lifted by an administrator",
            metadata: ["admin.id": "\(person.user.id)", "user.id": "\(userID)", "changed": "\(changed)"]
        )
        return AccountPages.redirect(to: "/admin?notice=" + (changed ? (action == "suspend" ? "suspended" : "lifted") : "unchanged"))
    }
}
