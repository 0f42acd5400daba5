import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `GET /account/friends`: find people by name, answer requests, see and end friendships.
/// `POST /account/friends` does one of those things and comes back.
struct FriendsController: Sendable {
    let account: AccountPages

    /// The most people a name search lists.
    static let searchLimit = 20

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/account/friends") { request, _ in try await show(request) }
        router.post("/account/friends") { request, context in try await act(request, context) }
    }

    /// What a button on the page asks for.
    private enum Action: String {
        case request, accept, decline, cancel, unfriend
    }

    private static let notices = [
        "requested": "Friend request sent.",
        "already-requested": "You had already sent a request; it is still waiting.",
        "became-friends": "They had asked you too, so you are friends now.",
        "already-friends": "You are friends already.",
        "accepted": "You are friends now.",
        "declined": "Request declined.",
        "cancelled": "Request withdrawn.",
        "unfriended": "You are no longer friends.",
        "gone": "That request was already answered or withdrawn.",
    ]

    private func show(_ request: Request) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let query = FormReader.query(of: request)
        let search = String((query["q"] ?? "").prefix(100)).trimmingCharacters(in: .whitespaces)
        return try await page(person, search: search, notice: query["notice"].flatMap { Self.notices[$0] })
    }

    private func act(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let person = try await account.requireSignedIn(request)
        let form = try await account.readForm(request, of: person)
        let me = person.user.id
        guard let action = form["action"].flatMap(Action.init(rawValue:)), let other = form["user_id"], other != me,
            try await account.platform.users.find(id: other) != nil
        else {
            return account.pages.error(
                status: .badRequest,
                heading: "Unknown request",
                message: "The form did not name a person and something to do.",
                detail: "Go back to your friends page and try again."
            )
        }
        let friends = account.platform.friends
        let notice: String
        do {
            switch action {
            case .request:
                notice =
                    switch try await friends.sendRequest(from: me, to: other) {
                    case .requested: "requested"
                    case .alreadyRequested: "already-requested"
                    case .becameFriends: "became-friends"
                    case .alreadyFriends: "already-friends"
                    }
            case .accept:
                try await friends.accept(requestFrom: other, to: me)
                notice = "accepted"
            case .decline:
                try await friends.dropRequest(from: other, to: me)
                notice = "declined"
            case .cancel:
                try await friends.dropRequest(from: me, to: other)
                notice = "cancelled"
            case .unfriend:
                try await friends.unfriend(me, other)
                notice = "unfriended"
            }
        } catch is FriendRequestError {
            notice = "gone"
        }
        context.logger.info("Friends page action", metadata: ["user.id": "\(me)", "friends.action": "\(action)", "friends.other": "\(other)"])
        var target = "/account/friends?notice=\(notice)"
        if let search = form["q"], !search.isEmpty { target += "&q=" + FormParameters.encode(String(search.prefix(100))) }
        return AccountPages.redirect(to: target)
    }

    private func page(_ person: SignedIn, search: String, notice: String?) async throws -> Response {
        let me = person.user.id
        let platform = account.platform
        let friendIDs = Set(try await platform.friends.friendIDs(of: me))
        let incoming = try await platform.friends.incomingRequests(for: me).map(\.fromUserID)
        let outgoing = try await platform.friends.outgoingRequests(of: me).map(\.toUserID)
        let people = Dictionary(
            try await platform.users.find(ids: Array(friendIDs) + incoming + outgoing).map { ($0.id, $0) },
            uniquingKeysWith: { first, _ in first }
        )

        func row(_ user: UserRecord) -> [String: Any] {
            ["id": user.id, "name": user.name, "pictureURL": "/pictures/\(user.id)?size=100"]
        }
        var values: [String: Any] = [
            "search": search,
            "incoming": incoming.compactMap { people[$0] }.map(row),
            "outgoing": outgoing.compactMap { people[$0] }.map(row), "hasOutgoing": !outgoing.isEmpty,
            "friends": people.values.filter { friendIDs.contains($0.id) }.sorted { ($0.name, $0.id) < ($1.name, $1.id) }.map(row),
            "friendCount": friendIDs.count,
        ]
        if !search.isEmpty {
            let found = try await platform.users.search(name: search, limit: Self.searchLimit).filter { $0.id != me }
            values["searched"] = true
            values["results"] = found.map { user -> [String: Any] in
                var result = row(user)
                result["isFriend"] = friendIDs.contains(user.id)
                result["askedYou"] = incoming.contains(user.id)
                result["youAsked"] = outgoing.contains(user.id)
                result["canAsk"] = !friendIDs.contains(user.id) && !incoming.contains(user.id) && !outgoing.contains(user.id)
                return result
            }
        }
        return account.page("friends", title: "Friends", section: "friends", person: person, values: values, notice: notice)
    }
}
