import SQLKit

/// Password reset links: made for a person who asked by email, single-use, short-lived, kept only
/// as hashes. Redeeming one sets the new password and ends every session and token, as a change
/// of password does.
struct PasswordResetStore: Sendable {
    let database: Database
    let clock: any WallClock
    let passwords: PasswordHasher
    let generation: GrantGeneration?

    /// Makes a link's token for `userID`, valid for `lifetime` seconds.
    func issue(userID: String, lifetime: Int) async throws -> String {
        let token = Secrets.generate(prefix: "kpr_")
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO password_resets (token_hash, user_id, created_at, expires_at)
                VALUES (\(bind: Secrets.hash(token)), \(bind: userID), \(bind: now), \(bind: now + lifetime))
                """
            ).run()
            try await sql.raw("DELETE FROM password_resets WHERE expires_at < \(bind: now - 24 * 60 * 60)").run()
        }
        return token
    }

    /// The person a link is for, while it is unused and current.
    func holder(of token: String) async throws -> UserRecord? {
        let now = clock.now
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT u.* FROM password_resets r JOIN users u ON u.id = r.user_id
                WHERE r.token_hash = \(bind: Secrets.hash(token)) AND r.used_at IS NULL AND r.expires_at > \(bind: now)
                """
            ).first(decoding: UserRecord.self)
        }
    }

    /// Spends the link and sets `newPassword`, in one transaction: of several uses at once, one
    /// sets the password and the others find the link spent.
    ///
    /// - Returns: the person's id, or `nil` when the link is unknown, spent or expired.
    /// - Throws: ``AccountError/invalid(_:)`` when the new password breaks the rule.
    func redeem(_ token: String, newPassword: String) async throws -> String? {
        try NewUser.checkPassword(newPassword)
        let newHash = try await passwords.hash(newPassword)
        let now = clock.now
        return try await generation.changing {
            try await database.write { sql in
                guard
                    let userID = try await sql.raw(
                        """
                        UPDATE password_resets SET used_at = \(bind: now)
                        WHERE token_hash = \(bind: Secrets.hash(token)) AND used_at IS NULL AND expires_at > \(bind: now)
                        RETURNING user_id
                        """
                    ).first(decodingColumn: "user_id", as: String.self)
                else { return nil }
                try await UserStore.resetPassword(of: userID, toHash: newHash, now: now, sql)
                return userID
            }
        }
    }
}
