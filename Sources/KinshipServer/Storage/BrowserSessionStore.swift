import SQLKit

/// Who is logged in to the dialog in a browser: the cookie holds a random id, the database its hash.
struct BrowserSessionStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Where a session was started: shown on the security page so a person can tell theirs apart.
    struct Origin: Sendable {
        /// The client address, as every rate limit sees it.
        let address: String
        /// The browser's `User-Agent`, bounded.
        let userAgent: String?

        init(address: String, userAgent: String?) {
            self.address = address
            self.userAgent = userAgent.map { String($0.prefix(400)) }
        }
    }

    /// Starts a session for a person; returns the cookie value.
    func start(userID: String, lifetime: Int, from origin: Origin) async throws -> String {
        let id = Secrets.generate(byteCount: 32)
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO browser_sessions (id_hash, user_id, created_at, expires_at, client_address, user_agent)
                VALUES (\(bind: Secrets.hash(id)), \(bind: userID), \(bind: now), \(bind: now + lifetime), \(bind: origin.address),
                    \(bind: origin.userAgent))
                """
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
            case userID = "user_id"
            case createdAt = "created_at"
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

    /// One of a person's current sessions, as the security page lists it.
    struct Listing: Decodable, Sendable {
        /// The hash of the cookie: names the session in the page's forms without being a cookie.
        let idHash: String
        let createdAt: Int
        let clientAddress: String?
        let userAgent: String?

        enum CodingKeys: String, CodingKey {
            case idHash = "id_hash"
            case createdAt = "created_at"
            case clientAddress = "client_address"
            case userAgent = "user_agent"
        }
    }

    /// A person's current sessions, newest first.
    func list(userID: String) async throws -> [Listing] {
        let now = clock.now
        return try await database.read { sql in
            try await sql.raw(
                """
                SELECT id_hash, created_at, client_address, user_agent FROM browser_sessions
                WHERE user_id = \(bind: userID) AND expires_at > \(bind: now) ORDER BY created_at DESC, id_hash
                """
            ).all(decoding: Listing.self)
        }
    }

    /// Ends a session.
    func end(cookie: String) async throws {
        try await database.write { sql in
            try await sql.raw("DELETE FROM browser_sessions WHERE id_hash = \(bind: Secrets.hash(cookie))").run()
        }
    }

    /// Ends one of a person's sessions, named as ``Listing/idHash``; returns whether there was one.
    /// Someone else's session is never ended, whatever the form says.
    func end(idHash: String, of userID: String) async throws -> Bool {
        try await database.write { sql in
            try await sql.raw(
                "DELETE FROM browser_sessions WHERE id_hash = \(bind: idHash) AND user_id = \(bind: userID) RETURNING id_hash"
            ).first() != nil
        }
    }
}
