import KinshipCore
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
    /// The app's OpenID Connect nonce, for the id_token.
    var nonce: String?
    /// The scope the app asked for, as a scope string (`openid` among it for an OpenID login).
    var requestedScope: String?
    /// When the person typed their password (Unix seconds): the id_token's `auth_time`.
    var authTime: Int?

    /// The scope the app asked for.
    var requested: [Permission] { Permission.list(fromScope: requestedScope ?? "") }

    /// What the code remembers of the login that issued it.
    var login: CodeLogin { CodeLogin(requested: requested, nonce: nonce, authTime: authTime) }
}

/// What a code (or an approved device code) remembers of the login that issued it, for the
/// tokens its exchange issues.
struct CodeLogin: Sendable {
    let requested: [Permission]
    let nonce: String?
    /// When the person typed their password (Unix seconds); unknown for codes issued before it was kept.
    let authTime: Int?
}

/// Authorization codes: issued by the dialog, exchanged once at the token endpoint.
struct CodeStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Issues a code and returns it; the database keeps only its hash.
    func issue(
        authorization: Authorization,
        redirectURI: String,
        codeChallenge: String?,
        login: CodeLogin,
        lifetime: Int
    ) async throws -> String {
        let code = Secrets.generate(prefix: "kac_")
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO authorization_codes (code_hash, authorization_id, app_id, user_id, redirect_uri, code_challenge, created_at,
                    expires_at, nonce, requested_scope, auth_time)
                VALUES (\(bind: Secrets.hash(code)), \(bind: authorization.id), \(bind: authorization.appID), \(bind: authorization.userID),
                    \(bind: redirectURI), \(bind: codeChallenge), \(bind: now), \(bind: now + lifetime), \(bind: login.nonce),
                    \(bind: Permission.scope(of: login.requested)), \(bind: login.authTime))
                """
            ).run()
        }
        return code
    }

    /// The stored record of the code whose hash is `codeHash`, used or not, in the caller's transaction.
    static func find(codeHash: String, in sql: any SQLDatabase) async throws -> AuthorizationCodeRecord? {
        try await sql.raw("SELECT * FROM authorization_codes WHERE code_hash = \(bind: codeHash)")
            .first(decoding: AuthorizationCodeRecord.self, with: .snakeCase)
    }

    /// Marks a code used, in the caller's write transaction, with the refresh token family its
    /// exchange starts (so a replay finds the family by the code). Returns `false` when another
    /// request used it first: only one exchange of a code can ever succeed, even with several
    /// server processes.
    static func spend(codeHash: String, refreshFamily: String?, now: Int, in sql: any SQLDatabase) async throws -> Bool {
        try await sql.raw(
            """
            UPDATE authorization_codes SET used_at = \(bind: now), refresh_family_id = \(bind: refreshFamily)
            WHERE code_hash = \(bind: codeHash) AND used_at IS NULL RETURNING code_hash
            """
        ).first() != nil
    }

    /// The refresh token family the exchange of a used code started, if it started one.
    static func refreshFamily(ofCodeHash codeHash: String, in sql: any SQLDatabase) async throws -> String? {
        try await sql.raw("SELECT refresh_family_id FROM authorization_codes WHERE code_hash = \(bind: codeHash)")
            .first(decodingColumn: "refresh_family_id", as: String?.self) ?? nil
    }
}
