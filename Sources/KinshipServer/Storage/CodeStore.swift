import SQLKit

/// An authorization code as stored: only its hash, bound to the app, redirect URI and PKCE
/// challenge it was issued for.
struct AuthorizationCodeRecord: Decodable, Sendable {
    var codeHash: String
    var authorizationId: String
    var appId: String
    var userId: String
    var redirectUri: String
    var codeChallenge: String?
    var createdAt: Int
    var expiresAt: Int
    var usedAt: Int?
}

/// Authorization codes: issued by the dialog, exchanged once at the token endpoint.
struct CodeStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Issues a code and returns it; the database keeps only its hash.
    func issue(
        authorization: Authorization, redirectURI: String, codeChallenge: String?, lifetime: Int
    ) async throws -> String {
        let code = Secrets.generate(prefix: "kac_")
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO authorization_codes (code_hash, authorization_id, app_id, user_id, redirect_uri, code_challenge, created_at, expires_at)
                VALUES (\(bind: Secrets.hash(code)), \(bind: authorization.id), \(bind: authorization.appID), \(bind: authorization.userID),
                    \(bind: redirectURI), \(bind: codeChallenge), \(bind: now), \(bind: now + lifetime))
                """
            ).run()
        }
        return code
    }

    /// The stored record of a code, used or not.
    func find(code: String) async throws -> AuthorizationCodeRecord? {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM authorization_codes WHERE code_hash = \(bind: Secrets.hash(code))")
                .first(decoding: AuthorizationCodeRecord.self, with: .snakeCase)
        }
    }

    /// Marks a code used. Returns `false` when another request used it first: only one exchange of
    /// a code can ever succeed, even with several server processes.
    func consume(codeHash: String) async throws -> Bool {
        let now = clock.now
        return try await database.write { sql in
            try await sql.raw(
                "UPDATE authorization_codes SET used_at = \(bind: now) WHERE code_hash = \(bind: codeHash) AND used_at IS NULL RETURNING code_hash"
            ).first() != nil
        }
    }
}
