import SQLKit

extension AppStore {
    /// The apps a person made on `/developers`, oldest first.
    public func owned(by userID: String) async throws -> [AppRecord] {
        try await database.read { sql in
            let rows = try await sql.raw("SELECT * FROM apps WHERE owner_id = \(bind: userID) ORDER BY created_at, id")
                .all(decoding: AppRow.self, with: .snakeCase)
            var apps: [AppRecord] = []
            for row in rows {
                let uris = try await sql.raw("SELECT uri FROM app_redirect_uris WHERE app_id = \(bind: row.id) ORDER BY uri")
                    .all(decodingColumn: "uri", as: String.self)
                apps.append(AppRecord(row, redirectURIs: uris))
            }
            return apps
        }
    }

    /// What a developer may change about an app.
    public struct Settings: Sendable {
        public var name: String
        public var isConfidential: Bool
        public var redirectURIs: [String]
        public var mayPublish: Bool
        public var mayChat: Bool

        public init(name: String, isConfidential: Bool, redirectURIs: [String], mayPublish: Bool, mayChat: Bool) {
            self.name = name
            self.isConfidential = isConfidential
            self.redirectURIs = redirectURIs
            self.mayPublish = mayPublish
            self.mayChat = mayChat
        }
    }

    /// Replaces an app's name, type, redirect URIs and rights to ask for posting and chat, in one
    /// transaction.
    ///
    /// - Throws: ``AppError/invalid(_:)`` for a bad name or redirect URI, or an app that is gone.
    public func update(appID: String, _ settings: Settings) async throws {
        let name = try Self.checkedName(settings.name)
        let uris = try Self.checkedRedirectURIs(settings.redirectURIs)
        try await changing { sql in
            guard
                try await sql.raw(
                    """
                    UPDATE apps SET name = \(bind: name), is_confidential = \(bind: settings.isConfidential ? 1 : 0),
                        may_publish = \(bind: settings.mayPublish ? 1 : 0), may_chat = \(bind: settings.mayChat ? 1 : 0)
                    WHERE id = \(bind: appID) RETURNING id
                    """
                ).first() != nil
            else { throw AppError.invalid("No app has the client id \(appID).") }
            try await sql.raw("DELETE FROM app_redirect_uris WHERE app_id = \(bind: appID)").run()
            for uri in uris {
                try await sql.raw("INSERT INTO app_redirect_uris (app_id, uri) VALUES (\(bind: appID), \(bind: uri))").run()
            }
        }
    }

    /// Gives an app a new client secret and returns it (the only clear copy). The secret it had
    /// keeps working for `graceSeconds` (0: it stops at once); a secret from an earlier rotation
    /// stops now, whatever was left of its grace.
    public func rotateSecret(appID: String, graceSeconds: Int) async throws -> String {
        precondition(graceSeconds >= 0, "a grace period is not negative")
        let secret = Secrets.generate(byteCount: 24)
        let now = clock.now
        try await changing { sql in
            guard
                try await sql.raw(
                    """
                    UPDATE apps SET previous_secret_hash = \(unsafeRaw: graceSeconds > 0 ? "secret_hash" : "NULL"),
                        previous_secret_expires_at = \(bind: graceSeconds > 0 ? now + graceSeconds : nil),
                        secret_hash = \(bind: Secrets.hash(secret))
                    WHERE id = \(bind: appID) RETURNING id
                    """
                ).first() != nil
            else { throw AppError.invalid("No app has the client id \(appID).") }
        }
        return secret
    }

    /// Deletes an app: its logins, every token of them, its codes and device logins and its
    /// callbacks go with it in one transaction, so every token stops at once.
    /// - Returns: whether there was such an app.
    public func delete(appID: String) async throws -> Bool {
        try await changing { sql in
            try await sql.raw("DELETE FROM apps WHERE id = \(bind: appID) RETURNING id").first() != nil
        }
    }

    /// How many people have the app now (logins not removed).
    public func userCount(appID: String) async throws -> Int {
        try await userCounts(appIDs: [appID])[appID] ?? 0
    }

    /// How many people have each of these apps now, in one query; apps nobody has are left out.
    public func userCounts(appIDs: [String]) async throws -> [String: Int] {
        guard !appIDs.isEmpty else { return [:] }
        return try await database.read { sql in
            var counts: [String: Int] = [:]
            for row in try await sql.raw(
                """
                SELECT app_id, COUNT(*) AS people FROM authorizations
                WHERE app_id IN (\(binds: appIDs)) AND revoked_at IS NULL GROUP BY app_id
                """
            ).all() {
                counts[try row.decode(column: "app_id", as: String.self)] = try row.decode(column: "people", as: Int.self)
            }
            return counts
        }
    }
}
