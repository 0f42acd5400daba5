import SQLKit

/// Who is logged in to the dialog in a browser: the cookie holds a random id, the database its hash.
struct BrowserSessionStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Starts a session for a person; returns the cookie value.
    func start(userID: String, lifetime: Int) async throws -> String {
        let id = Secrets.generate(byteCount: 32)
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                "INSERT INTO browser_sessions (id_hash, user_id, created_at, expires_at) VALUES (\(bind: Secrets.hash(id)), \(bind: userID), \(bind: now), \(bind: now + lifetime))"
            ).run()
        }
        return id
    }

    /// A current session: whose it is, and when they typed their password.
    struct Session: Decodable, Sendable {
        let userID: String
        /// Unix seconds: OpenID Connect's `auth_time`.
        let createdAt: Int

        enum CodingKeys: String, CodingKey {
            case userID = "user_id", createdAt = "created_at"
        }
    }

    /// The session a cookie belongs to, if it is current.
    func find(cookie: String) async throws -> Session? {
        let now = clock.now
        return try await database.read { sql in
            try await sql.raw(
                "SELECT user_id, created_at FROM browser_sessions WHERE id_hash = \(bind: Secrets.hash(cookie)) AND expires_at > \(bind: now)"
            ).first(decoding: Session.self)
        }
    }

    /// Ends a session.
    func end(cookie: String) async throws {
        try await database.write { sql in
            try await sql.raw("DELETE FROM browser_sessions WHERE id_hash = \(bind: Secrets.hash(cookie))").run()
        }
    }
}
