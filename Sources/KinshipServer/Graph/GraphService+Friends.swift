import HTTPTypes
import KinshipCore

extension GraphService {
    /// `GET /me/friends?limit&after|before&fields`: friends who use the app and granted it
    /// `user_friends`, by name, with cursors; `summary.total_count` counts every friend.
    func friends(_ request: GraphRequest, node: String) async throws -> GraphResponse {
        let caller = try await caller(request)
        let user = try ownNode(node, caller)
        try requirePermission(.userFriends, caller, for: "Reading the friend list")
        let selection = try FieldSelection(parsing: request.parameters["fields"], default: ["id", "name"])
        let limit = try limit(request)
        let after = try request.parameters["after"].map(Self.cursor)
        let before = try request.parameters["before"].map(Self.cursor)
        if after != nil, before != nil { throw GraphError.invalidParameter("Send either after or before, not both") }
        let page = try await platform.friends.friendsUsingApp(
            of: user.id,
            appID: caller.authorization.appID,
            after: after,
            before: before,
            limit: limit
        )
        var data: [JSONValue] = []
        for friend in page.friends {
            data.append(try await profiles.render(friend, selection, baseURL: request.baseURL) { $0.isPublic })
        }
        var paging: [(String, JSONValue)] = []
        if let first = page.friends.first, let last = page.friends.last {
            let afterCursor = FriendCursor(name: last.name, id: last.id).encoded
            let beforeCursor = FriendCursor(name: first.name, id: first.id).encoded
            paging.append(("cursors", .object([("before", .string(beforeCursor)), ("after", .string(afterCursor))])))
            if page.hasAfter { paging.append(("next", .string(link(request, limit: limit, cursor: ("after", afterCursor))))) }
            if page.hasBefore { paging.append(("previous", .string(link(request, limit: limit, cursor: ("before", beforeCursor))))) }
        }
        return .json(
            JSONValue.object([
                ("data", .array(data)), ("paging", .object(paging)), ("summary", .object([("total_count", .int(page.totalFriends))])),
            ])
        )
    }

    private static func cursor(_ text: String) throws -> FriendCursor {
        guard let cursor = FriendCursor(encoded: text) else { throw GraphError.invalidParameter("The paging cursor is not valid") }
        return cursor
    }

    /// The URL of the next or previous page; the token is not repeated in it.
    private func link(_ request: GraphRequest, limit: Int, cursor: (String, String)) -> String {
        var parameters = FormParameters()
        parameters.append("limit", String(limit))
        parameters.append("fields", request.parameters["fields"])
        parameters.append(cursor.0, cursor.1)
        return "\(request.baseURL)/\(request.path)?\(parameters.formEncoded)"
    }
}
