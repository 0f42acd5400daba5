import SQLKit

/// Friendships between accounts. A friendship is mutual: it is stored in both directions.
public struct FriendStore: Sendable {
    let database: Database

    /// Makes two people friends. Befriending an existing friend changes nothing.
    public func befriend(_ userID: String, _ friendID: String) async throws {
        guard userID != friendID else { throw AccountError.invalid("A person cannot befriend themselves.") }
        let now = UnixTime.now()
        try await database.transaction { sql in
            for id in [userID, friendID] where try await sql.raw("SELECT id FROM users WHERE id = \(bind: id)").first() == nil {
                throw AccountError.unknownUser(id)
            }
            for (from, to) in [(userID, friendID), (friendID, userID)] {
                try await sql.raw(
                    """
                    INSERT INTO friendships (user_id, friend_id, created_at) VALUES (\(bind: from), \(bind: to), \(bind: now))
                    ON CONFLICT (user_id, friend_id) DO NOTHING
                    """
                ).run()
            }
        }
    }

    /// Whether two people are friends.
    func areFriends(_ userID: String, _ otherID: String) async throws -> Bool {
        try await database.withConnection { sql in
            try await sql.raw("SELECT friend_id FROM friendships WHERE user_id = \(bind: userID) AND friend_id = \(bind: otherID)")
                .first() != nil
        }
    }

    /// The ids of a person's friends.
    public func friendIDs(of userID: String) async throws -> [String] {
        try await database.withConnection { sql in
            try await sql.raw("SELECT friend_id FROM friendships WHERE user_id = \(bind: userID) ORDER BY friend_id")
                .all(decodingColumn: "friend_id", as: String.self)
        }
    }
}
