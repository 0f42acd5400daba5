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

/// Refresh tokens (RFC 6749 §6 with RFC 9700 §4.14): stored hashed, rotated on every use, a family
/// revoked as a whole when a rotated token comes back.
struct RefreshTokenStore: Sendable {
    let database: Database
    let clock: any WallClock
    let generation: GrantGeneration?

    /// A new family's id, for the first token of a login and the access token issued beside it.
    static func newFamily() -> String { Secrets.generate(byteCount: 16) }

    /// Issues a refresh token in `family`, valid for `lifetime` seconds unused; returns the token.
    func issue(
        family: String, authorization: Authorization, requestedScope: [Permission], authTime: Int?, lifetime: Int
    ) async throws -> String {
        let token = Secrets.generate(prefix: "krt_")
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO refresh_tokens (token_hash, family_id, authorization_id, app_id, user_id, requested_scope, auth_time,
                    issued_at, expires_at)
                VALUES (\(bind: Secrets.hash(token)), \(bind: family), \(bind: authorization.id), \(bind: authorization.appID),
                    \(bind: authorization.userID), \(bind: Permission.scope(of: requestedScope)), \(bind: authTime), \(bind: now),
                    \(bind: now + lifetime))
                """
            ).run()
        }
        return token
    }

    /// The stored record of a token, whatever its state.
    func find(token: String) async throws -> RefreshTokenRecord? {
        try await find(tokenHash: Secrets.hash(token))
    }

    /// The stored record of a token by its hash, whatever its state.
    func find(tokenHash: String) async throws -> RefreshTokenRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM refresh_tokens WHERE token_hash = \(bind: tokenHash)")
                .first(decoding: RefreshTokenRecord.self, with: .snakeCase)
        }
    }

    /// Marks a token rotated. Returns `false` when another request rotated it first, so only one
    /// use of a token is the first, even with several server processes.
    func rotate(tokenHash: String) async throws -> Bool {
        let now = clock.now
        return try await database.write { sql in
            try await sql.raw(
                """
                UPDATE refresh_tokens SET rotated_at = \(bind: now)
                WHERE token_hash = \(bind: tokenHash) AND rotated_at IS NULL AND revoked_at IS NULL RETURNING token_hash
                """
            ).first() != nil
        }
    }

    /// Revokes every refresh token of a family and every access token issued with them.
    func revokeFamily(_ family: String) async throws {
        let now = clock.now
        try await generation.changing { try await database.write { sql in
            try await sql.raw("UPDATE refresh_tokens SET revoked_at = \(bind: now) WHERE family_id = \(bind: family) AND revoked_at IS NULL")
                .run()
            try await sql.raw(
                "UPDATE access_tokens SET revoked_at = \(bind: now) WHERE refresh_family_id = \(bind: family) AND revoked_at IS NULL"
            ).run()
        } }
    }
}
