import SQLKit

/// Friendships between accounts, and the requests that lead to them. A friendship is mutual: it is
/// stored in both directions.
public struct FriendStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Makes two people friends at once, without a request (the admin command and the demo data);
    /// requests between them are cleared. Befriending an existing friend changes nothing.
    public func befriend(_ userID: String, _ friendID: String) async throws {
        guard userID != friendID else { throw AccountError.invalid("A person cannot befriend themselves.") }
        let now = clock.now
        try await database.write { sql in
            for id in [userID, friendID] where try await sql.raw("SELECT id FROM users WHERE id = \(bind: id)").first() == nil {
                throw AccountError.unknownUser(id)
            }
            try await Self.makeFriends(userID, friendID, at: now, sql)
        }
    }

    /// Whether two people are friends.
    func areFriends(_ userID: String, _ otherID: String) async throws -> Bool {
        try await database.read { sql in try await Self.areFriends(userID, otherID, sql) }
    }

    /// The ids of a person's friends.
    public func friendIDs(of userID: String) async throws -> [String] {
        try await database.read { sql in
            try await sql.raw("SELECT friend_id FROM friendships WHERE user_id = \(bind: userID) ORDER BY friend_id")
                .all(decodingColumn: "friend_id", as: String.self)
        }
    }
}
