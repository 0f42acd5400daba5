import KinshipCore
import SQLKit

/// Decides whether an access token may be used, and if not, which Graph error says why.
///
/// One query reads the token, its login, its person and the login's permissions together. The
/// answer is kept in a ``GenerationCache`` that any grant change, in any process, empties at once
/// (through a shared file on SQLite, `LISTEN/NOTIFY` on PostgreSQL; see ``GrantGeneration``).
struct TokenInspector: Sendable {
    /// A usable token, the login it speaks for, and the person.
    struct Grant: Sendable {
        let token: AccessTokenRecord
        let authorization: Authorization
        let user: UserRecord
    }

    /// Why a token may not be used: a Graph `190` error with its subcode.
    struct Refusal: Error, Sendable {
        let subcode: Int
        let message: String
        /// The token's record when the platform knows the token.
        let token: AccessTokenRecord?
    }

    private struct LoginColumns: Decodable {
        var authorizationRevokedAt: Int?
        var authorizationCreatedAt: Int
        /// `permission:status` pairs joined by commas.
        var permissions: String?

        enum CodingKeys: String, CodingKey {
            case authorizationRevokedAt = "authorization_revoked_at"
            case authorizationCreatedAt = "authorization_created_at"
            case permissions
        }
    }

    let platform: Platform
    private let cache: GenerationCache<Grant>?

    init(platform: Platform) {
        self.platform = platform
        self.cache = platform.grantGeneration.map(GenerationCache.init)
    }

    func inspect(_ token: String) async throws -> Result<Grant, Refusal> {
        guard token.hasPrefix("kat_") else {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeInvalidToken, message: "Invalid OAuth access token.", token: nil))
        }
        let hash = Secrets.hash(token)
        if let cached = cache?.value(for: hash) {
            guard cached.token.expiresAt > platform.clock.now else { return .failure(Self.expired(cached.token)) }
            return .success(cached)
        }
        let generation = cache?.generation.current
        let concatenate =
            platform.database.engine == .postgres
            ? "string_agg(p.permission || ':' || p.status, ',')" : "group_concat(p.permission || ':' || p.status, ',')"
        let found = try await platform.database.read { sql -> (AccessTokenRecord, LoginColumns, UserRecord)? in
            guard
                let row = try await sql.raw(
                    """
                    SELECT t.*, a.revoked_at AS authorization_revoked_at, a.created_at AS authorization_created_at, u.*,
                        (SELECT \(unsafeRaw: concatenate) FROM authorization_permissions p WHERE p.authorization_id = t.authorization_id) AS permissions
                    FROM access_tokens t JOIN authorizations a ON a.id = t.authorization_id JOIN users u ON u.id = t.user_id
                    WHERE t.token_hash = \(bind: hash)
                    """
                ).first()
            else { return nil }
            return (try row.decode(model: AccessTokenRecord.self), try row.decode(model: LoginColumns.self), try row.decode(model: UserRecord.self))
        }
        guard let (record, login, user) = found else {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeInvalidToken, message: "Invalid OAuth access token.", token: nil))
        }
        var permissions: Authorization.Statuses = [:]
        for pair in (login.permissions ?? "").split(separator: ",") {
            guard let colon = pair.lastIndex(of: ":"), let status = Authorization.Status(rawValue: String(pair[pair.index(after: colon)...]))
            else { continue }
            permissions[Permission(String(pair[..<colon]))] = status
        }
        if login.authorizationRevokedAt != nil {
            return .failure(
                Refusal(
                    subcode: GraphErrorCode.subcodeAppNotAuthorized,
                    message: "Error validating access token: The user has not authorized application \(record.appId).",
                    token: record
                )
            )
        }
        if user.suspendedAt != nil {
            return .failure(
                Refusal(
                    subcode: GraphErrorCode.subcodeSuspended,
                    message: "Error validating access token: The user's account is suspended.",
                    token: record
                )
            )
        }
        if record.revokedAt != nil {
            return .failure(
                Refusal(
                    subcode: GraphErrorCode.subcodeInvalidToken,
                    message: "Error validating access token: The session was invalidated (the token was revoked).",
                    token: record
                )
            )
        }
        if user.passwordChangedAt > record.issuedAt {
            return .failure(
                Refusal(
                    subcode: GraphErrorCode.subcodePasswordChanged,
                    message: "Error validating access token: The session was invalidated because the user changed their password.",
                    token: record
                )
            )
        }
        if record.expiresAt <= platform.clock.now {
            return .failure(Self.expired(record))
        }
        let authorization = Authorization(
            id: record.authorizationId,
            userID: record.userId,
            appID: record.appId,
            createdAt: login.authorizationCreatedAt,
            revokedAt: nil,
            permissions: permissions
        )
        let grant = Grant(token: record, authorization: authorization, user: user)
        if let generation { cache?.store(grant, for: hash, readAt: generation) }
        return .success(grant)
    }

    private static func expired(_ token: AccessTokenRecord) -> Refusal {
        Refusal(subcode: GraphErrorCode.subcodeExpired, message: "Error validating access token: Session has expired.", token: token)
    }
}
