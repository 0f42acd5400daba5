import SQLKit

extension UserStore {
    /// Sets a new password for a person whose current password the caller has just confirmed
    /// (against `user.passwordHash`). Every other browser session ends, and every token issued
    /// before answers Graph error `190` / `460` (see ``endSignIns(of:keepingSessionHash:now:_:)``).
    ///
    /// The change is a compare-and-set on the confirmed hash: of two changes made at once with
    /// the same current password, one wins and the other changes nothing.
    ///
    /// - Parameter keepingSession: the cookie of the browser session that made the change; it stays.
    /// - Returns: `false` when the password changed meanwhile (nothing changed).
    /// - Throws: ``AccountError/invalid(_:)`` when the new password breaks the rule.
    func changePassword(of user: UserRecord, to new: String, keepingSession: String) async throws -> Bool {
        try NewUser.checkPassword(new)
        let newHash = try await passwords.hash(new)
        let now = clock.now
        return try await generation.changing {
            try await database.write { sql in
                guard
                    try await sql.raw(
                        """
                        UPDATE users SET password_hash = \(bind: newHash), password_changed_at = \(bind: now)
                        WHERE id = \(bind: user.id) AND password_hash = \(bind: user.passwordHash) RETURNING id
                        """
                    ).first() != nil
                else { return false }
                try await Self.endSignIns(of: user.id, keepingSessionHash: Secrets.hash(keepingSession), now: now, sql)
                return true
            }
        }
    }

    /// Sets a password without the current one, inside the caller's transaction: a reset link's
    /// redemption. Every browser session ends, and every token issued before stops.
    static func resetPassword(of userID: String, toHash newHash: String, now: Int, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            "UPDATE users SET password_hash = \(bind: newHash), password_changed_at = \(bind: now) WHERE id = \(bind: userID)"
        ).run()
        try await endSignIns(of: userID, keepingSessionHash: nil, now: now, sql)
    }

    /// What a password change ends, in the caller's transaction, which also moved the person's
    /// `password_changed_at` to `now`:
    /// - access tokens issued before `now` answer `190` / `460` from that column alone; those
    ///   issued in the same second are revoked here, since seconds cannot tell them from the
    ///   tokens of a login made just after the change;
    /// - refresh tokens are revoked, codes not yet exchanged deleted, device logins approved
    ///   but not yet collected denied, and reset links not yet used spent;
    /// - every browser session but `keepingSessionHash` ends.
    static func endSignIns(of userID: String, keepingSessionHash: String?, now: Int, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            UPDATE access_tokens SET revoked_at = \(bind: now)
            WHERE user_id = \(bind: userID) AND issued_at >= \(bind: now) AND revoked_at IS NULL
            """
        ).run()
        try await sql.raw(
            "UPDATE refresh_tokens SET revoked_at = \(bind: now) WHERE user_id = \(bind: userID) AND revoked_at IS NULL"
        ).run()
        try await sql.raw("DELETE FROM authorization_codes WHERE user_id = \(bind: userID) AND used_at IS NULL").run()
        try await sql.raw("UPDATE device_codes SET status = 'denied' WHERE user_id = \(bind: userID) AND status = 'approved'").run()
        try await sql.raw("UPDATE password_resets SET used_at = \(bind: now) WHERE user_id = \(bind: userID) AND used_at IS NULL").run()
        try await sql.raw(
            "DELETE FROM browser_sessions WHERE user_id = \(bind: userID) AND id_hash <> \(bind: keepingSessionHash ?? "")"
        ).run()
    }
}
