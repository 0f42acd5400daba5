import KinshipCore
import KinshipSQLite

/// The token tables straight on SQLite's C API, on the writer connection of the write under way:
/// each statement is prepared once per connection and kept (``SQLiteHandle``), its values bound by
/// position, and each row's columns read in the order the statement lists them.
///
/// It answers exactly as ``SQLKitTokenTables`` does — the token table tests run both on one
/// database and compare — so a statement changed in a store is changed here too. A login and its
/// permissions are one statement here, two there.
struct SQLiteTokenTables: TokenTables {
    let connection: SQLiteTurnDatabase
    /// Where the statements are noted for their query plans, when the database keeps them.
    let log: StatementLog?

    func code(hash: String) throws -> AuthorizationCodeRecord? {
        try rows(
            """
            SELECT code_hash, authorization_id, app_id, user_id, redirect_uri, code_challenge, created_at, expires_at, used_at, nonce,
                requested_scope, auth_time
            FROM authorization_codes WHERE code_hash = ?
            """,
            [.text(hash)]
        ) { row in
            AuthorizationCodeRecord(
                codeHash: try row.text(),
                authorizationId: try row.text(),
                appId: try row.text(),
                userId: try row.text(),
                redirectUri: try row.text(),
                codeChallenge: try row.optionalText(),
                createdAt: try row.integer(),
                expiresAt: try row.integer(),
                usedAt: try row.optionalInteger(),
                nonce: try row.optionalText(),
                requestedScope: try row.optionalText(),
                authTime: try row.optionalInteger()
            )
        }.first
    }

    func spendCode(hash: String, refreshFamily: String?, now: Int) throws -> Bool {
        try !rows(
            "UPDATE authorization_codes SET used_at = ?, refresh_family_id = ? WHERE code_hash = ? AND used_at IS NULL RETURNING code_hash",
            [SQLiteValue(now), SQLiteValue(refreshFamily), .text(hash)]
        ) { _ in () }.isEmpty
    }

    func spendDeviceCode(hash: String) throws -> Bool {
        try !rows(
            "UPDATE device_codes SET status = ? WHERE device_code_hash = ? AND status = ? RETURNING device_code_hash",
            [.text(DeviceCodeRecord.Status.used.rawValue), .text(hash), .text(DeviceCodeRecord.Status.approved.rawValue)]
        ) { _ in () }.isEmpty
    }

    func authorization(id: String) throws -> Authorization? {
        // One row per permission, or one row of NULL permission for a login that has none.
        let rows = try rows(
            """
            SELECT authorizations.id, authorizations.user_id, authorizations.app_id, authorizations.created_at,
                authorizations.revoked_at, authorization_permissions.permission, authorization_permissions.status
            FROM authorizations
            LEFT JOIN authorization_permissions ON authorization_permissions.authorization_id = authorizations.id
            WHERE authorizations.id = ?
            """,
            [.text(id)]
        ) { row in
            (
                login: Authorization(
                    id: try row.text(),
                    userID: try row.text(),
                    appID: try row.text(),
                    createdAt: try row.integer(),
                    revokedAt: try row.optionalInteger(),
                    permissions: [:]
                ),
                permission: try row.optionalText(),
                status: try row.optionalText()
            )
        }
        guard var login = rows.first?.login else { return nil }
        for row in rows {
            guard let name = row.permission else { continue }
            login.permissions[Permission(name)] = row.status.flatMap(Authorization.Status.init(rawValue:))
        }
        return login
    }

    func person(id: String) throws -> UserRecord? {
        try rows(
            """
            SELECT id, name, first_name, middle_name, last_name, username, email, password_hash, gender, locale, birthday, hometown,
                location, password_changed_at, created_at, findable_by_email, is_admin, suspended_at
            FROM users WHERE id = ?
            """,
            [.text(id)]
        ) { row in
            UserRecord(
                id: try row.text(),
                name: try row.text(),
                firstName: try row.optionalText(),
                middleName: try row.optionalText(),
                lastName: try row.optionalText(),
                username: try row.optionalText(),
                email: try row.text(),
                passwordHash: try row.text(),
                gender: try row.optionalText(),
                locale: try row.optionalText(),
                birthday: try row.optionalText(),
                hometown: try row.optionalText(),
                location: try row.optionalText(),
                passwordChangedAt: try row.integer(),
                createdAt: try row.integer(),
                findableByEmail: try row.integer(),
                adminFlag: try row.integer(),
                suspendedAt: try row.optionalInteger()
            )
        }.first
    }

    func refreshToken(hash: String) throws -> RefreshTokenRecord? {
        try rows(
            """
            SELECT token_hash, family_id, authorization_id, app_id, user_id, requested_scope, auth_time, issued_at, expires_at, rotated_at,
                revoked_at
            FROM refresh_tokens WHERE token_hash = ?
            """,
            [.text(hash)]
        ) { row in
            RefreshTokenRecord(
                tokenHash: try row.text(),
                familyId: try row.text(),
                authorizationId: try row.text(),
                appId: try row.text(),
                userId: try row.text(),
                requestedScope: try row.optionalText(),
                authTime: try row.optionalInteger(),
                issuedAt: try row.integer(),
                expiresAt: try row.integer(),
                rotatedAt: try row.optionalInteger(),
                revokedAt: try row.optionalInteger()
            )
        }.first
    }

    func rotateRefreshToken(hash: String, now: Int) throws -> Bool {
        try !rows(
            "UPDATE refresh_tokens SET rotated_at = ? WHERE token_hash = ? AND rotated_at IS NULL AND revoked_at IS NULL RETURNING token_hash",
            [SQLiteValue(now), .text(hash)]
        ) { _ in () }.isEmpty
    }

    func insert(_ token: AccessTokenRecord) throws {
        try run(
            """
            INSERT INTO access_tokens (token_hash, authorization_id, app_id, user_id, lifetime, code_hash, issued_at, expires_at,
                refresh_family_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(token.tokenHash), .text(token.authorizationId), .text(token.appId), .text(token.userId), .text(token.lifetime),
                SQLiteValue(token.codeHash), SQLiteValue(token.issuedAt), SQLiteValue(token.expiresAt), SQLiteValue(token.refreshFamilyId),
            ]
        )
    }

    func insert(_ token: RefreshTokenRecord) throws {
        try run(
            """
            INSERT INTO refresh_tokens (token_hash, family_id, authorization_id, app_id, user_id, requested_scope, auth_time,
                issued_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(token.tokenHash), .text(token.familyId), .text(token.authorizationId), .text(token.appId), .text(token.userId),
                SQLiteValue(token.requestedScope), SQLiteValue(token.authTime), SQLiteValue(token.issuedAt), SQLiteValue(token.expiresAt),
            ]
        )
    }

    private func rows<Row>(_ sql: String, _ binds: [SQLiteValue], _ read: (inout SQLiteRowReader) throws -> Row) throws -> [Row] {
        log?.record(sql, binds.map(\.encodable))
        return try connection.rows(sql, binds, read)
    }

    private func run(_ sql: String, _ binds: [SQLiteValue]) throws {
        log?.record(sql, binds.map(\.encodable))
        try connection.run(sql, binds)
    }
}
