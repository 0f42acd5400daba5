import Foundation
import Logging
import SQLKit

/// Brings a database up to the newest ``Schema`` version when the server or an admin command starts.
///
/// Safe when several processes start at once: on PostgreSQL the steps run under an advisory lock,
/// on SQLite under the database's write lock, and each step is recorded in the same transaction
/// that applies it.
struct Migrator {
    let database: Database
    let clock: any WallClock
    let logger: Logger

    /// Applies every step not applied yet; returns the versions it applied.
    @discardableResult
    func migrate(_ migrations: [Migration] = Schema.migrations) async throws -> [Int] {
        try await database.write { sql in
            try await sql.raw(
                "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)"
            ).run()
        }
        let engine = database.engine
        let logger = self.logger
        let now = clock.now
        return try await database.write { sql in
            if engine == .postgres {
                try await sql.raw("SELECT pg_advisory_xact_lock(7428190)").run()
            }
            let applied = Set(
                try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int.self)
            )
            var newlyApplied: [Int] = []
            for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
                logger.info(
                    "Applying schema migration",
                    metadata: ["version": "\(migration.version)", "name": "\(migration.name)"]
                )
                for statement in migration.statements(for: engine) {
                    try await sql.raw(SQLQueryString(statement)).run()
                }
                try await migration.afterwards?(sql)
                try await sql.raw(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: now))"
                ).run()
                newlyApplied.append(migration.version)
            }
            return newlyApplied
        }
    }
}
