import SQLKit

/// Which chat logins still stand: what the chat server asks every second about its live sessions,
/// by the SHA-256 of the token each logged in with.
struct ChatLogins: Sendable {
    let database: Database

    /// The most token hashes one question may name.
    static let batchLimit = 500

    /// The hashes of `tokenHashes` whose chat login still stands: the token is not revoked, its
    /// login is not removed and still holds `xmpp_login`, and its person exists, is not suspended
    /// and has not changed their password since. A token that merely expired keeps its session,
    /// as a chat session outlives the token it started with.
    func standing(_ tokenHashes: [String]) async throws -> Set<String> {
        guard !tokenHashes.isEmpty else { return [] }
        precondition(tokenHashes.count <= Self.batchLimit, "at most \(Self.batchLimit) chat logins per question")
        return try await database.read { sql in
            Set(
                try await sql.raw(
                    """
                    SELECT t.token_hash FROM access_tokens t
                    JOIN authorizations a ON a.id = t.authorization_id
                    JOIN users u ON u.id = t.user_id
                    JOIN authorization_permissions p ON p.authorization_id = a.id AND p.permission = 'xmpp_login' AND p.status = 'granted'
                    WHERE t.token_hash IN (\(binds: tokenHashes)) AND t.revoked_at IS NULL AND a.revoked_at IS NULL
                        AND u.suspended_at IS NULL AND u.password_changed_at <= t.issued_at
                    """
                ).all(decodingColumn: "token_hash", as: String.self)
            )
        }
    }
}
