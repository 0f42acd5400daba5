import Foundation
import SQLKit

/// Registered apps: create (which hands out the only clear copy of the secret), find, list.
///
/// Apps are read on every dialog and token request and change rarely, so ``find(id:)`` keeps them
/// in memory while the ``GrantGeneration`` stands still; every write that changes an app moves it.
public struct AppStore: Sendable {
    let database: Database
    let clock: any WallClock
    /// Moved by every change to an app (and by deletion: cached token checks hold its logins).
    let generation: GrantGeneration?
    /// Apps read by id, kept while `generation` stands still.
    private let cache: GenerationCache<AppRecord>?

    init(database: Database, clock: any WallClock, generation: GrantGeneration?) {
        self.database = database
        self.clock = clock
        self.generation = generation
        self.cache = generation.map(GenerationCache.init)
    }

    /// Registers an app and returns it with its client secret, which is not stored in clear and
    /// cannot be shown again.
    ///
    /// - Parameters:
    ///   - ownerID: the person who made it on `/developers`, or `nil` for an operator's app.
    ///   - mayPublish: whether it may ask for `publish_actions`.
    ///   - mayChat: whether it may ask for `xmpp_login`.
    public func create(
        name: String,
        redirectURIs: [String],
        isConfidential: Bool,
        ownerID: String? = nil,
        mayPublish: Bool = true,
        mayChat: Bool = true
    ) async throws -> (app: AppRecord, secret: String) {
        let name = try Self.checkedName(name)
        let uris = try Self.checkedRedirectURIs(redirectURIs)
        let secret = Secrets.generate(byteCount: 24)
        let app = AppRecord(
            id: Secrets.numericID(),
            name: name,
            isConfidential: isConfidential,
            redirectURIs: uris,
            secretHash: Secrets.hash(secret),
            createdAt: clock.now,
            ownerID: ownerID,
            mayPublish: mayPublish,
            mayChat: mayChat
        )
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO apps (id, name, secret_hash, is_confidential, created_at, owner_id, may_publish, may_chat)
                VALUES (\(bind: app.id), \(bind: app.name), \(bind: app.secretHash), \(bind: app.isConfidential ? 1 : 0), \(bind: app.createdAt),
                    \(bind: ownerID), \(bind: mayPublish ? 1 : 0), \(bind: mayChat ? 1 : 0))
                """
            ).run()
            for uri in app.redirectURIs {
                try await sql.raw("INSERT INTO app_redirect_uris (app_id, uri) VALUES (\(bind: app.id), \(bind: uri))").run()
            }
        }
        return (app, secret)
    }

    /// An app's name as stored: trimmed, 1 to 100 characters.
    static func checkedName(_ name: String) throws(AppError) -> String {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= 100 else { throw .invalid("The app name must be 1 to 100 characters.") }
        return name
    }

    /// Redirect URIs as stored: each checked by ``RedirectURIPolicy``, duplicates dropped.
    static func checkedRedirectURIs(_ redirectURIs: [String]) throws(AppError) -> [String] {
        var uris: [String] = []
        for uri in redirectURIs {
            try RedirectURIPolicy.validateForRegistration(uri)
            if !uris.contains(uri) { uris.append(uri) }
        }
        return uris
    }

    /// Registers an app the platform itself ships (the sample app) with a known id and secret, or
    /// brings an earlier registration up to date (name, secret, redirect URIs).
    func registerBuiltIn(id: String, name: String, redirectURIs: [String], isConfidential: Bool, secret: String) async throws {
        for uri in redirectURIs { try RedirectURIPolicy.validateForRegistration(uri) }
        let now = clock.now
        try await changing { sql in
            try await sql.serialize(on: ["app " + id])
            try await sql.raw(
                """
                INSERT INTO apps (id, name, secret_hash, is_confidential, created_at)
                VALUES (\(bind: id), \(bind: name), \(bind: Secrets.hash(secret)), \(bind: isConfidential ? 1 : 0), \(bind: now))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, secret_hash = excluded.secret_hash,
                    is_confidential = excluded.is_confidential
                """
            ).run()
            try await sql.raw("DELETE FROM app_redirect_uris WHERE app_id = \(bind: id)").run()
            for uri in Set(redirectURIs) {
                try await sql.raw("INSERT INTO app_redirect_uris (app_id, uri) VALUES (\(bind: id), \(bind: uri))").run()
            }
        }
    }

    /// The app with this client id.
    public func find(id: String) async throws -> AppRecord? {
        if let app = cache?.value(for: id) { return app }
        let readAt = cache?.generation.current
        let app = try await database.read { sql -> AppRecord? in
            guard let row = try await sql.raw("SELECT * FROM apps WHERE id = \(bind: id)").first(decoding: AppRow.self, with: .snakeCase)
            else { return nil }
            let uris = try await sql.raw("SELECT uri FROM app_redirect_uris WHERE app_id = \(bind: id) ORDER BY uri")
                .all(decodingColumn: "uri", as: String.self)
            return AppRecord(row, redirectURIs: uris)
        }
        if let app, let readAt { cache?.store(app, for: id, readAt: readAt) }
        return app
    }

    /// Runs `body` in a write transaction that changes an app: the generation moves around it, so
    /// no process goes on using the app as it was.
    func changing<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await generation.changing { try await database.write(body) }
    }

    /// Every app, oldest first.
    public func list() async throws -> [AppRecord] {
        try await database.read { sql in
            let rows = try await sql.raw("SELECT * FROM apps ORDER BY created_at, id").all(decoding: AppRow.self, with: .snakeCase)
            let uriRows = try await sql.raw("SELECT app_id, uri FROM app_redirect_uris ORDER BY uri").all()
            var urisByApp: [String: [String]] = [:]
            for row in uriRows {
                urisByApp[try row.decode(column: "app_id", as: String.self), default: []].append(
                    try row.decode(column: "uri", as: String.self)
                )
            }
            return rows.map { AppRecord($0, redirectURIs: urisByApp[$0.id] ?? []) }
        }
    }
}

extension AppRecord {
    init(_ row: AppRow, redirectURIs: [String]) {
        self.init(
            id: row.id,
            name: row.name,
            isConfidential: row.isConfidential != 0,
            redirectURIs: redirectURIs,
            secretHash: row.secretHash,
            createdAt: row.createdAt,
            deauthorizeCallbackURL: row.deauthorizeCallbackUrl,
            dataDeletionCallbackURL: row.dataDeletionCallbackUrl,
            sealedSigningSecret: row.sealedSigningSecret,
            ownerID: row.ownerId,
            mayPublish: row.mayPublish != 0,
            mayChat: row.mayChat != 0,
            previousSecretHash: row.previousSecretHash,
            previousSecretExpiresAt: row.previousSecretExpiresAt
        )
    }
}

/// Why an app could not be registered.
public enum AppError: Error, Equatable, CustomStringConvertible {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        }
    }
}
