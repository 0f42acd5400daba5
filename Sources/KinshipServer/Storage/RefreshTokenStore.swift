import KinshipCore
import SQLKit

/// A refresh token as stored: only its hash, its family, and the login it renews.
struct RefreshTokenRecord: Decodable, Sendable {
    var tokenHash: String
    var familyId: String
    var authorizationId: String
    var appId: String
    var userId: String
    /// The scope the login asked for (`openid` among it when refreshes carry an id_token).
    var requestedScope: String?
    /// When the person typed their password for the login (the id_token's `auth_time`).
    var authTime: Int?
    var issuedAt: Int
    var expiresAt: Int
    /// When it was exchanged for its successor.
    var rotatedAt: Int?
    var revokedAt: Int?

    var requested: [Permission] { Permission.list(fromScope: requestedScope ?? "") }
}

extension RefreshTokenRecord {
    /// A new refresh token of `family` for a login, and the record that keeps only its hash.
    static func make(
        family: String,
        _ login: RefreshTokenStore.Login,
        seconds: Int,
        now: Int
    ) -> (token: String, record: RefreshTokenRecord) {
        let token = Secrets.generate(prefix: "krt_")
        let authorization = login.authorization
        let record = RefreshTokenRecord(
            tokenHash: Secrets.hash(token),
            familyId: family,
            authorizationId: authorization.id,
            appId: authorization.appID,
            userId: authorization.userID,
            requestedScope: Permission.scope(of: login.requestedScope),
            authTime: login.authTime,
            issuedAt: now,
            expiresAt: now + seconds,
            rotatedAt: nil,
            revokedAt: nil
        )
        return (token, record)
    }

    /// Stores a new record (not rotated, not revoked).
    func insert(into sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO refresh_tokens (token_hash, family_id, authorization_id, app_id, user_id, requested_scope, auth_time,
                issued_at, expires_at)
            VALUES (\(bind: tokenHash), \(bind: familyId), \(bind: authorizationId), \(bind: appId), \(bind: userId),
                \(bind: requestedScope), \(bind: authTime), \(bind: issuedAt), \(bind: expiresAt))
            """
        ).run()
    }
}

/// Refresh tokens (RFC 6749 §6 with RFC 9700 §4.14): stored hashed, rotated on every use, a family
/// revoked as a whole when a rotated token comes back.
struct RefreshTokenStore: Sendable {
    let database: Database
    let clock: any WallClock
    let generation: GrantGeneration?

    /// What the app gets each time: an access token and the refresh token that renews it.
    struct TokenPair: Sendable {
        let accessToken: String
        let refreshToken: String
    }

    /// What a family's tokens carry over from the login that started it.
    struct Login: Sendable {
        let authorization: Authorization
        /// The scope the login asked for.
        let requestedScope: [Permission]
        /// When the person typed their password (Unix seconds).
        let authTime: Int?
    }

    /// How long the tokens of a pair live, in seconds.
    struct Lifetimes: Sendable {
        let accessToken: Int
        /// Unused; each renewal starts it again.
        let refreshToken: Int
    }

    /// A new family's identifier.
    static func newFamily() -> String { Secrets.generate(byteCount: 16) }

    /// Starts `family` (from ``newFamily()``) for a login, in the caller's write transaction: its
    /// first access token (from the code or device code `codeHash`) and refresh token.
    static func startFamily(
        _ family: String,
        _ login: Login,
        codeHash: String,
        lifetimes: Lifetimes,
        now: Int,
        in tables: any TokenTables
    ) async throws
        -> TokenPair
    {
        try await insertPair(family: family, login, codeHash: codeHash, lifetimes, now: now, tables)
    }

    /// What a refresh read, and what it stored, in the write that rotates its token.
    struct Renewal: Sendable {
        /// The token as the write found it.
        let record: RefreshTokenRecord
        /// The token's person, for an id_token.
        let person: UserRecord
        /// What the new pair carries over.
        let login: Login
        /// The successor pair; `nil` when the token had been rotated already (by a concurrent
        /// refresh, or a copy used again), and nothing was stored.
        let pair: TokenPair?
    }

    /// Renews the refresh token whose hash is `tokenHash` in one write transaction: the token, its
    /// person and its login are read, `accept` checks them and says what the new pair carries
    /// over (it throws to refuse, and nothing is written), and the token is rotated with its
    /// successor stored. So a login revoked or a password changed cannot slip in between the
    /// check and the rotation, and a refresh takes one turn at the writer and no read before it.
    /// `nil` when no token has that hash. Only one use of a token rotates it, even with several
    /// server processes; a crash never spends a token without storing its successor.
    func renew(
        tokenHash: String,
        lifetimes: Lifetimes,
        _ accept: @escaping @Sendable (RefreshTokenRecord, UserRecord?, Authorization?) throws -> (Login, UserRecord)
    ) async throws -> Renewal? {
        let now = clock.now
        return try await database.writeTokens { tables in
            guard let record = try await tables.refreshToken(hash: tokenHash) else { return nil }
            let (login, person) = try accept(
                record,
                try await tables.person(id: record.userId),
                try await tables.authorization(id: record.authorizationId)
            )
            var pair: TokenPair?
            if try await tables.rotateRefreshToken(hash: tokenHash, now: now) {
                pair = try await Self.insertPair(family: record.familyId, login, codeHash: nil, lifetimes, now: now, tables)
            }
            return Renewal(record: record, person: person, login: login, pair: pair)
        }
    }

    /// The next pair of `record`'s family without rotating `record` (it was rotated already): for
    /// a concurrent refresh of one token within the grace window.
    func renewAgain(_ record: RefreshTokenRecord, _ login: Login, lifetimes: Lifetimes) async throws -> TokenPair {
        let now = clock.now
        return try await database.writeTokens { tables in
            try await Self.insertPair(family: record.familyId, login, codeHash: nil, lifetimes, now: now, tables)
        }
    }

    private static func insertPair(
        family: String,
        _ login: Login,
        codeHash: String?,
        _ lifetimes: Lifetimes,
        now: Int,
        _ tables: any TokenTables
    ) async throws -> TokenPair {
        let (accessToken, access) = AccessTokenRecord.make(
            for: login.authorization,
            lifetime: .short,
            seconds: lifetimes.accessToken,
            codeHash: codeHash,
            refreshFamily: family,
            now: now
        )
        try await tables.insert(access)
        let (refreshToken, refresh) = RefreshTokenRecord.make(family: family, login, seconds: lifetimes.refreshToken, now: now)
        try await tables.insert(refresh)
        return TokenPair(accessToken: accessToken, refreshToken: refreshToken)
    }

    /// The stored record of a token, whatever its state.
    func find(token: String) async throws -> RefreshTokenRecord? {
        try await find(tokenHash: Secrets.hash(token))
    }

    /// The stored record of a token by its hash, whatever its state.
    func find(tokenHash: String) async throws -> RefreshTokenRecord? {
        try await database.read { sql in try await Self.find(tokenHash: tokenHash, in: sql) }
    }

    /// The stored record of a token by its hash, as the caller's transaction sees it.
    static func find(tokenHash: String, in sql: any SQLDatabase) async throws -> RefreshTokenRecord? {
        try await sql.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: tokenHash)")
            .first(decoding: RefreshTokenRecord.self, with: .snakeCase)
    }

    /// Marks the token rotated, in the caller's write transaction; `false` when it was rotated or
    /// revoked already. Only one use of a token rotates it, even with several server processes.
    static func rotate(tokenHash: String, now: Int, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE refresh_tokens SET rotated_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND rotated_at IS NULL AND revoked_at IS NULL RETURNING token_hash
            """
        ).first() != nil
    }

    /// Revokes every refresh token of a family and every access token issued with them.
    func revokeFamily(_ family: String) async throws {
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in try await Self.revokeFamily(family, now: now, in: sql) }
        }
    }

    /// Revokes a family in the caller's write transaction (which also announces the grant change).
    static func revokeFamily(_ family: String, now: Int, in sql: any SQLDatabase) async throws {
        try await sql.raw("UPDATE refresh_tokens SET revoked_at = \(bind: now) WHERE family_id = \(bind: family) AND revoked_at IS NULL")
            .run()
        try await sql.raw(
            "UPDATE access_tokens SET revoked_at = \(bind: now) WHERE refresh_family_id = \(bind: family) AND revoked_at IS NULL"
        ).run()
    }
}
