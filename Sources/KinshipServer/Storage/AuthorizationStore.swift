import KinshipCore
import SQLKit

/// The logins people have given apps, and the permission each holds.
struct AuthorizationStore: Sendable {
    let database: Database
    let clock: any WallClock
    let generation: GrantGeneration?

    /// The person's current (not revoked) login to the app, if any.
    func active(userID: String, appID: String) async throws -> Authorization? {
        try await database.read { sql in
            guard
                let row = try await sql.raw(
                    "SELECT * FROM authorizations WHERE user_id = \(bind: userID) AND app_id = \(bind: appID) AND revoked_at IS NULL"
                ).first(decoding: AuthorizationRow.self, with: .snakeCase)
            else { return nil }
            return try await Self.load(row, sql)
        }
    }

    /// Every current login a person has given, oldest first.
    func active(userID: String) async throws -> [Authorization] {
        try await database.read { sql in
            var authorizations: [Authorization] = []
            for row in try await sql.raw(
                "SELECT * FROM authorizations WHERE user_id = \(bind: userID) AND revoked_at IS NULL ORDER BY created_at, id"
            ).all(decoding: AuthorizationRow.self, with: .snakeCase) {
                authorizations.append(try await Self.load(row, sql))
            }
            return authorizations
        }
    }

    /// The login with this id, revoked or not.
    func find(id: String) async throws -> Authorization? {
        try await database.read { sql in try await Self.find(id: id, in: sql) }
    }

    /// The login with this id, revoked or not, as the caller's transaction sees it.
    static func find(id: String, in sql: any SQLDatabase) async throws -> Authorization? {
        guard
            let row = try await sql.raw("SELECT * FROM authorizations WHERE id = \(bind: id)")
                .first(decoding: AuthorizationRow.self, with: .snakeCase)
        else { return nil }
        return try await load(row, sql)
    }

    /// Records what the person chose on the consent page: creates their login to the app if they
    /// have none, and sets each listed permission's status. `public_profile` is always granted.
    func recordConsent(
        userID: String,
        appID: String,
        granted: Set<Permission>,
        declined: Set<Permission>
    ) async throws -> Authorization {
        let now = clock.now
        let authorizationID = try await generation.changing {
            try await database.write { sql -> String in
                try await sql.serialize(on: ["login of \(userID) to \(appID)"])
                let existing = try await sql.raw(
                    "SELECT id FROM authorizations WHERE user_id = \(bind: userID) AND app_id = \(bind: appID) AND revoked_at IS NULL"
                ).first(decodingColumn: "id", as: String.self)
                let id = existing ?? Secrets.generate(byteCount: 16)
                if existing == nil {
                    try await sql.raw(
                        "INSERT INTO authorizations (id, user_id, app_id, created_at) VALUES (\(bind: id), \(bind: userID), \(bind: appID), \(bind: now))"
                    ).run()
                }
                let statuses =
                    granted.union([.publicProfile]).map { ($0, Authorization.Status.granted) }
                    + declined.subtracting(granted).subtracting([.publicProfile]).map { ($0, Authorization.Status.declined) }
                for (permission, status) in statuses {
                    try await sql.raw(
                        """
                        INSERT INTO authorization_permissions (authorization_id, permission, status, updated_at)
                        VALUES (\(bind: id), \(bind: permission.rawValue), \(bind: status.rawValue), \(bind: now))
                        ON CONFLICT (authorization_id, permission) DO UPDATE SET status = excluded.status, updated_at = excluded.updated_at
                        """
                    ).run()
                }
                return id
            }
        }
        guard let authorization = try await find(id: authorizationID) else {
            throw StorageError.vanished("authorization \(authorizationID)")
        }
        return authorization
    }

    /// Marks one permission declined: the app no longer holds it, and the dialog asks for it again
    /// only with `auth_type=rerequest`.
    func revoke(_ permission: Permission, in authorizationID: String) async throws {
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in
                try await sql.raw(
                    """
                    UPDATE authorization_permissions SET status = \(bind: Authorization.Status.declined.rawValue), updated_at = \(bind: now)
                    WHERE authorization_id = \(bind: authorizationID) AND permission = \(bind: permission.rawValue)
                    """
                ).run()
            }
        }
    }

    /// Ends a login: every token of it fails from now on, and the next login starts afresh.
    ///
    /// - Parameter notifyingApp: whether the app's deauthorize callback is sent (in the same
    ///   transaction, through the outbox): `true` when the person removed the app, `false` when
    ///   the app itself ended the login.
    func revokeAll(_ authorizationID: String, notifyingApp: Bool) async throws {
        let now = clock.now
        try await generation.changing {
            try await database.write { sql in
                guard
                    let row = try await sql.raw(
                        """
                        UPDATE authorizations SET revoked_at = \(bind: now) WHERE id = \(bind: authorizationID) AND revoked_at IS NULL
                        RETURNING user_id, app_id
                        """
                    ).first(), notifyingApp
                else { return }
                try await CallbackOutbox.enqueue(
                    .deauthorize,
                    appID: try row.decode(column: "app_id", as: String.self),
                    userID: try row.decode(column: "user_id", as: String.self),
                    now: now,
                    sql
                )
            }
        }
    }

    static func permissions(of authorizationID: String, _ sql: any SQLDatabase) async throws -> Authorization.Statuses {
        var permissions: Authorization.Statuses = [:]
        for row in try await sql.raw(
            "SELECT permission, status FROM authorization_permissions WHERE authorization_id = \(bind: authorizationID)"
        ).all() {
            let name = try row.decode(column: "permission", as: String.self)
            permissions[Permission(name)] = Authorization.Status(rawValue: try row.decode(column: "status", as: String.self))
        }
        return permissions
    }

    private static func load(_ row: AuthorizationRow, _ sql: any SQLDatabase) async throws -> Authorization {
        Authorization(
            id: row.id,
            userID: row.userId,
            appID: row.appId,
            createdAt: row.createdAt,
            revokedAt: row.revokedAt,
            permissions: try await permissions(of: row.id, sql)
        )
    }
}

/// A storage failure that is not the caller's fault.
enum StorageError: Error, CustomStringConvertible {
    case vanished(String)

    var description: String {
        switch self {
        case .vanished(let what): "The \(what) disappeared while it was being written."
        }
    }
}
