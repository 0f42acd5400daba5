import Foundation
import Logging
import NIOPosix
import SQLiteKit
import SQLiteNIO

/// A consistent copy of an SQLite database taken while servers keep using it.
///
/// `VACUUM INTO` copies one snapshot: it reads in a single read transaction, so in write-ahead-log
/// mode writers go on meanwhile and none of their half-done work lands in the copy. The copy is a
/// compacted database file of its own, readable by its owner only (it holds password and token
/// hashes). SQLite's page-by-page backup API would do the same, but SQLiteNIO does not expose it.
enum SQLiteBackup {
    /// Copies the database at `source` to `destination`, which must not exist yet, and checks the
    /// copy with `PRAGMA integrity_check`. Nothing is left at `destination` when it fails.
    static func copy(from source: String, to destination: String, logger: Logger) async throws -> DatabaseBackup {
        guard FileManager.default.fileExists(atPath: source) else { throw DatabaseBackupError.noDatabase(source) }
        do {
            try SQLiteFile.createNew(at: destination)
        } catch .exists {
            throw DatabaseBackupError.cannotCreate(destination, "it exists already")
        } catch .cannotCreate(_, let reason) {
            throw DatabaseBackupError.cannotCreate(destination, reason)
        }
        do {
            try await withConnection(to: source, logger: logger) { sql in
                try await sql.raw("PRAGMA busy_timeout = \(unsafeRaw: String(SQLiteConnectionPool.busyTimeoutMilliseconds))").run()
                try await sql.raw("VACUUM INTO \(bind: destination)").run()
            }
            let integrity = try await withConnection(to: destination, logger: logger) { sql in
                try await sql.raw("PRAGMA integrity_check").all().map { try $0.decode(column: "integrity_check", as: String.self) }
            }
            guard integrity == ["ok"] else { throw DatabaseBackupError.damagedCopy(integrity.prefix(5).joined(separator: "; ")) }
            let bytes = (try FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
            return DatabaseBackup(path: destination, bytes: bytes)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    private static func withConnection<Result>(
        to path: String,
        logger: Logger,
        _ body: (any SQLDatabase) async throws -> Result
    )
        async throws -> Result
    {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: .singleton,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.next()
        )
        do {
            let result = try await body(connection.sql(queryLogLevel: nil))
            try await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
