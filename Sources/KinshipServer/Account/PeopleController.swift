import HTTPTypes
import Hummingbird

/// `GET /people/{id}`: a person's public profile page, where the Graph API's `link` field points —
/// their name and picture, what everyone may see. A logged-in visitor also sees where the two of
/// them stand and can ask to be friends.
struct PeopleController: Sendable {
    let account: AccountPages

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/people/:userID") { request, context in try await show(request, context) }
    }

    private func show(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let platform = account.platform
        guard let id = context.parameters.get("userID"), let person = try await platform.users.find(id: id) else {
            return account.pages.error(
                status: .notFound,
                heading: "Nobody here",
                message: "No one on Kinship has this address.",
                detail: "Check the link, or find people from your friends page."
            )
        }
        var values: [String: Any] = [
            "userID": person.id, "name": person.name, "pictureURL": "/pictures/\(person.id)?size=200",
        ]
        guard let visitor = try await account.signedIn(request) else {
            values["title"] = person.name
            return account.pages.page("person", values)
        }
        let me = visitor.user.id
        values["isYou"] = person.id == me
        if person.id != me {
            let friendIDs = try await platform.friends.friendIDs(of: me)
            let askedYou = try await platform.friends.incomingRequests(for: me).contains { $0.fromUserID == person.id }
            let youAsked = try await platform.friends.outgoingRequests(of: me).contains { $0.toUserID == person.id }
            let isFriend = friendIDs.contains(person.id)
            values["isFriend"] = isFriend
            values["askedYou"] = askedYou
            values["youAsked"] = youAsked
            values["canAsk"] = !isFriend && !askedYou && !youAsked
        }
        return account.page("person", title: person.name, section: "", person: visitor, values: values)
    }
}
