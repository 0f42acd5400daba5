import SQLKit

extension UserStore {
    /// Deletes an account whose password the caller has just confirmed, in one transaction: each app the person used
    /// gets its data deletion callback through the outbox, then the account goes with everything
    /// that hangs off it (logins and their tokens, browser sessions, friendships, friend requests
    /// both ways, posts, the picture, reset links, device logins). The email may sign up again.
    ///
    /// - Returns: how many data deletion callbacks were written, or `nil` when the account was
    ///   already gone.
    func delete(_ user: UserRecord) async throws -> Int? {
        let now = clock.now
        return try await generation.changing {
            try await database.write { sql in
                try await sql.serialize(on: ["account " + user.id])
                guard try await Self.find(id: user.id, in: sql) != nil else { return nil }
                let callbacks = try await CallbackOutbox.enqueueDataDeletion(userID: user.id, now: now, sql)
                // Device logins name the person without a foreign key (they start before anyone logs in).
                try await sql.raw("DELETE FROM device_codes WHERE user_id = \(bind: user.id)").run()
                let contacts = try await ChatRosterChanges.contacts(of: user.id, sql)
                // Every other table that names the person cascades from this row.
                try await sql.raw("DELETE FROM users WHERE id = \(bind: user.id)").run()
                try await ChatRosterChanges.record(contacts, now: now, sql)
                return callbacks
            }
        }
    }
}
