import SQLKit

/// How long a token lives: a short-lived one from a login, or a long-lived one from an exchange.
enum TokenLifetime: String, Sendable {
    case short
    case long
}

/// An access token as stored: only its hash, and the login it belongs to.
struct AccessTokenRecord: Decodable, Sendable {
    var tokenHash: String
    var authorizationId: String
    var appId: String
    var userId: String
    var lifetime: String
    var codeHash: String?
    var issuedAt: Int
    var expiresAt: Int
    var revokedAt: Int?
    /// The refresh token family the token comes with, or was extended from, if any: reusing a
    /// rotated refresh token, or replaying the code that started the family, revokes it too.
    var refreshFamilyId: String?

    /// Column names, so rows decode without converting every key's case on the hot path.
    enum CodingKeys: String, CodingKey {
        case lifetime
        case tokenHash = "token_hash"
        case authorizationId = "authorization_id"
        case appId = "app_id"
        case userId = "user_id"
        case codeHash = "code_hash"
        case issuedAt = "issued_at"
        case expiresAt = "expires_at"
        case revokedAt = "revoked_at"
        case refreshFamilyId = "refresh_family_id"
    }
}

extension AccessTokenRecord {
    /// A new token for a login and the record that keeps only its hash.
    static func make(
        for authorization: Authorization,
        lifetime: TokenLifetime,
        seconds: Int,
        codeHash: String?,
        refreshFamily: String?,
        now: Int
    ) -> (token: String, record: AccessTokenRecord) {
        let token = Secrets.generate(prefix: "kat_")
        let record = AccessTokenRecord(
            tokenHash: Secrets.hash(token),
            authorizationId: authorization.id,
            appId: authorization.appID,
            userId: authorization.userID,
            lifetime: lifetime.rawValue,
            codeHash: codeHash,
            issuedAt: now,
            expiresAt: now + seconds,
            revokedAt: nil,
            refreshFamilyId: refreshFamily
        )
        return (token, record)
    }

    /// Stores the record.
    func insert(into sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO access_tokens (token_hash, authorization_id, app_id, user_id, lifetime, code_hash, issued_at, expires_at,
                refresh_family_id)
            VALUES (\(bind: tokenHash), \(bind: authorizationId), \(bind: appId), \(bind: userId), \(bind: lifetime), \(bind: codeHash),
                \(bind: issuedAt), \(bind: expiresAt), \(bind: refreshFamilyId))
            """
        ).run()
    }
}

/// Access tokens: issue, look up, revoke.
struct TokenStore: Sendable {
    let database: Database
    let clock: any WallClock
    let generation: GrantGeneration?

    /// Issues a token for a login; returns the token (shown once) and its record. A token made
    /// from another (a long-lived exchange) names the code and refresh family that one came from,
    /// so that revoking either revokes it too.
    func issue(
        authorization: Authorization,
        lifetime: TokenLifetime,
        seconds: Int,
        codeHash: String?,
        refreshFamily: String? = nil
    ) async throws -> (token: String, record: AccessTokenRecord) {
        let (token, record) = AccessTokenRecord.make(
            for: authorization,
            lifetime: lifetime,
            seconds: seconds,
            codeHash: codeHash,
            refreshFamily: refreshFamily,
            now: clock.now
        )
        try await database.write { sql in try await record.insert(into: sql) }
        return (token, record)
    }

    /// The stored record of a token, whatever its state.
    func find(token: String) async throws -> AccessTokenRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM access_tokens WHERE token_hash = \(bind: Secrets.hash(token))")
                .first(decoding: AccessTokenRecord.self)
        }
    }

    /// Revokes one token.
    func revoke(tokenHash: String) async throws {
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in
                try await sql.raw(
                    "UPDATE access_tokens SET revoked_at = \(bind: now) WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL"
                ).run()
            }
        }
    }

    /// Revokes every token that came from one authorization code, when the code is replayed
    /// (RFC 6749 §4.1.2): the refresh token family its exchange started, with every token that
    /// family renewed or extended, and the access tokens issued with it outside a family (with the
    /// long-lived ones extended from them) — so whoever exchanged a leaked code first keeps nothing.
    func revokeTokens(issuedFromCodeHash codeHash: String) async throws {
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in
                if let family = try await CodeStore.refreshFamily(ofCodeHash: codeHash, in: sql) {
                    try await RefreshTokenStore.revokeFamily(family, now: now, in: sql)
                }
                try await sql.raw(
                    """
                    UPDATE access_tokens SET revoked_at = \(bind: now)
                    WHERE code_hash = \(bind: codeHash) AND refresh_family_id IS NULL AND revoked_at IS NULL
                    """
                ).run()
            }
        }
    }
}
