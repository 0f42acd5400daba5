import Foundation
import KinshipCore
import SQLKit

/// Where a page of friends starts or ends: a friend's name and id, opaque to apps.
struct FriendCursor: Sendable, Equatable {
    let name: String
    let id: String

    init(name: String, id: String) {
        self.name = name
        self.id = id
    }

    /// Reads a cursor an app sent back; `nil` when it is not one this server wrote.
    init?(encoded: String) {
        guard let data = Base64URL.decode(encoded), let text = String(data: data, encoding: .utf8),
            let separator = text.firstIndex(of: "\u{0}")
        else { return nil }
        name = String(text[..<separator])
        id = String(text[text.index(after: separator)...])
        guard !id.isEmpty else { return nil }
    }

    var encoded: String { Base64URL.encode((name + "\u{0}" + id).utf8) }
}

/// One page of a person's friends who use an app, in name order, with whether more lie on each
/// side, and how many friends the person has in all (whether or not they use any app), read at
/// the same moment as the page.
struct FriendPage: Sendable {
    let friends: [UserRecord]
    let hasBefore: Bool
    let hasAfter: Bool
    let totalFriends: Int
}

extension FriendStore {
    /// Friends of `userID` who use `appID` and granted it `user_friends`, by name then id, after or
    /// before a cursor. Paging by the last name seen (not by offset) keeps pages stable while
    /// friendships change: nobody is listed twice or skipped.
    func friendsUsingApp(
        of userID: String,
        appID: String,
        after: FriendCursor?,
        before: FriendCursor?,
        limit: Int
    ) async throws -> FriendPage {
        let name = database.engine == .postgres ? #"u.name COLLATE "C""# : "u.name"
        @Sendable func query(_ sql: any SQLDatabase, _ cursor: FriendCursor?, forward: Bool, limit: Int, select: String) async throws -> [any SQLRow]
        {
            let comparison = forward ? ">" : "<"
            let direction = forward ? "ASC" : "DESC"
            let position: SQLQueryString =
                cursor.map {
                    "WHERE (\(unsafeRaw: name) \(unsafeRaw: comparison) \(bind: $0.name) OR (u.name = \(bind: $0.name) AND u.id \(unsafeRaw: comparison) \(bind: $0.id)))"
                } ?? ""
            // The person's friends are read first, through the friendships index, whatever the
            // planner guesses from a cursor's condition on names: it may not walk all of users.
            return try await sql.raw(
                """
                WITH mine AS MATERIALIZED (SELECT friend_id FROM friendships WHERE user_id = \(bind: userID))
                SELECT \(unsafeRaw: select) FROM mine JOIN users u ON u.id = mine.friend_id
                JOIN authorizations a ON a.user_id = u.id AND a.app_id = \(bind: appID) AND a.revoked_at IS NULL
                JOIN authorization_permissions p ON p.authorization_id = a.id AND p.permission = 'user_friends' AND p.status = 'granted'
                \(position)
                ORDER BY \(unsafeRaw: name) \(unsafeRaw: direction), u.id \(unsafeRaw: direction) LIMIT \(literal: limit)
                """
            ).all()
        }
        return try await database.read { sql in
            let forward = before == nil
            let rows = try await query(sql, forward ? after : before, forward: forward, limit: limit + 1, select: "u.*")
            var friends = try rows.prefix(limit).map { try $0.decode(model: UserRecord.self) }
            let more = rows.count > limit
            if !forward { friends.reverse() }
            var hasOther = false
            if let edge = forward ? friends.first : friends.last {
                let cursor = FriendCursor(name: edge.name, id: edge.id)
                hasOther = !(try await query(sql, cursor, forward: !forward, limit: 1, select: "u.id")).isEmpty
            } else if let cursor = forward ? after : before {
                hasOther = !(try await query(sql, cursor, forward: !forward, limit: 1, select: "u.id")).isEmpty
            }
            let total =
                try await sql.raw("SELECT COUNT(*) AS total FROM friendships WHERE user_id = \(bind: userID)")
                .first(decodingColumn: "total", as: Int.self) ?? 0
            return FriendPage(
                friends: friends,
                hasBefore: forward ? hasOther : more,
                hasAfter: forward ? more : hasOther,
                totalFriends: total
            )
        }
    }
}
