import Foundation
import SQLKit

extension UserStore {
    /// Accounts whose name or email contains `text` (every account when it is empty), newest
    /// first, at most `limit`: what `/admin` lists.
    public func search(_ text: String, limit: Int) async throws -> [UserRecord] {
        let pattern =
            "%"
            + text.lowercased().replacingOccurrences(of: "\\", with: "\\\\")
            .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT * FROM users WHERE lower(name) LIKE \(bind: pattern) ESCAPE '\\' OR email LIKE \(bind: pattern) ESCAPE '\\'
                ORDER BY created_at DESC, id LIMIT \(literal: limit)
                """
            ).all(decoding: UserRecord.self)
        }
    }

    /// Makes a person an administrator (`true`) or not; returns whether the account exists.
    public func setAdmin(userID: String, _ isAdmin: Bool) async throws -> Bool {
        try await generation.changing {
            try await database.write { sql in
                try await sql.raw("UPDATE users SET is_admin = \(bind: isAdmin ? 1 : 0) WHERE id = \(bind: userID) RETURNING id").first() != nil
            }
        }
    }

    /// Suspends an account, in one transaction: every token, refresh token and browser session of
    /// the person stops at once, codes not yet exchanged are deleted, and until the suspension is
    /// lifted the person cannot log in (the login forms say the account is suspended).
    /// - Returns: `false` when there is no such account or it is suspended already.
    public func suspend(userID: String) async throws -> Bool {
        let now = clock.now
        return try await generation.changing {
            try await database.write { sql in
                guard
                    try await sql.raw(
                        "UPDATE users SET suspended_at = \(bind: now) WHERE id = \(bind: userID) AND suspended_at IS NULL RETURNING id"
                    ).first() != nil
                else { return false }
                try await sql.raw(
                    "UPDATE access_tokens SET revoked_at = \(bind: now) WHERE user_id = \(bind: userID) AND revoked_at IS NULL"
                ).run()
                try await Self.endSignIns(of: userID, keepingSessionHash: nil, now: now, sql)
                return true
            }
        }
    }

    /// Lifts a suspension: the person may log in again (the tokens the suspension ended stay ended).
    /// - Returns: `false` when there is no such account or it is not suspended.
    public func lift(userID: String) async throws -> Bool {
        try await generation.changing {
            try await database.write { sql in
                try await sql.raw(
                    "UPDATE users SET suspended_at = NULL WHERE id = \(bind: userID) AND suspended_at IS NOT NULL RETURNING id"
                ).first() != nil
            }
        }
    }
}
