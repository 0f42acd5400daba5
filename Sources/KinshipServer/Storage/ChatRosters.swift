import SQLKit

/// One contact on a person's chat roster, as Kinship's friend list has it.
struct ChatRosterItem: Sendable, Equatable, Encodable {
    /// Where the contact stands with the roster's owner.
    enum Standing: String, Sendable, Encodable {
        /// Friends: presence both ways (`subscription="both"`).
        case friend
        /// The owner asked and waits (`subscription="none" ask="subscribe"`).
        case asked
        /// The contact asked and waits for the owner's answer (a pending incoming subscription).
        case asking
    }

    /// The contact's user id, the local part of their chat address.
    let user: String
    /// Their name from their profile.
    let name: String
    let standing: Standing
}

/// The chat rosters Prosody's `mod_roster_kinship` reads: a person's friends and the friend
/// requests waiting either way, with names from the profiles.
struct ChatRosters: Sendable {
    let database: Database

    /// `userID`'s roster, by name; `nil` when there is no such person.
    func roster(of userID: String) async throws -> [ChatRosterItem]? {
        struct Row: Decodable {
            let id: String
            let name: String
            let standing: String
        }
        return try await database.read { sql in
            guard try await sql.raw("SELECT id FROM users WHERE id = \(bind: userID)").first() != nil else { return nil }
            return try await sql.raw(
                """
                SELECT u.id, u.name, 'friend' AS standing FROM friendships f JOIN users u ON u.id = f.friend_id
                    WHERE f.user_id = \(bind: userID)
                UNION ALL SELECT u.id, u.name, 'asked' AS standing FROM friend_requests r JOIN users u ON u.id = r.to_user_id
                    WHERE r.from_user_id = \(bind: userID)
                UNION ALL SELECT u.id, u.name, 'asking' AS standing FROM friend_requests r JOIN users u ON u.id = r.from_user_id
                    WHERE r.to_user_id = \(bind: userID)
                ORDER BY name, id
                """
            ).all(decoding: Row.self).compactMap { row in
                ChatRosterItem.Standing(rawValue: row.standing).map { ChatRosterItem(user: row.id, name: row.name, standing: $0) }
            }
        }
    }
}
