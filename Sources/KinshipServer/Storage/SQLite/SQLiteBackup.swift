import Foundation
import KinshipSQLite

/// A consistent copy of an SQLite database taken while servers keep using it.
///
/// `VACUUM INTO` copies one snapshot: it reads in a single read transaction, so in write-ahead-log
/// mode writers go on meanwhile and none of their half-done work lands in the copy. The copy is a
/// compacted database file of its own, readable by its owner only (it holds password and token
/// hashes), smaller than the file it copies when that has free pages.
enum SQLiteBackup {
    /// Copies the database at `source` to `destination`, which must not exist yet, and checks the
    /// copy with `PRAGMA integrity_check`. Nothing is left at `destination` when it fails.
    static func copy(from source: String, to destination: String) async throws -> DatabaseBackup {
        guard FileManager.default.fileExists(atPath: source) else { throw DatabaseBackupError.noDatabase(source) }
        do {
            try SQLiteFile.createNew(at: destination)
        } catch .exists {
            throw DatabaseBackupError.cannotCreate(destination, "it exists already")
        } catch .cannotCreate(_, let reason) {
            throw DatabaseBackupError.cannotCreate(destination, reason)
        }
        do {
            try await withConnection(to: source) { handle in
                try handle.execute("VACUUM INTO ?", [.text(destination)])
            }
            var integrity: [String] = []
            try await withConnection(to: destination) { handle in
                try handle.execute("PRAGMA integrity_check", []) { _, values in
                    guard case .text(let line)? = values.first else { return }
                    integrity.append(line)
                }
            }
            guard integrity == ["ok"] else { throw DatabaseBackupError.damagedCopy(integrity.prefix(5).joined(separator: "; ")) }
            let bytes = (try FileManager.default.attributesOfItem(atPath: destination)[.size] as? Int) ?? 0
            return DatabaseBackup(path: destination, bytes: bytes)
        } catch {
            try? FileManager.default.removeItem(atPath: destination)
            throw error
        }
    }

    /// Opens a connection to `path` on a thread of its own for `body`, then closes both.
    private static func withConnection(to path: String, _ body: (SQLiteHandle) throws -> Void) async throws {
        let thread = SQLiteThread(name: "sqlite-backup")
        defer { thread.stop() }
        try await thread.run {
            let handle = try SQLiteHandle(path: path, busyTimeoutMilliseconds: Int32(SQLiteConnectionPool.busyTimeoutMilliseconds), pragmas: [])
            defer { handle.close() }
            try body(handle)
        }
    }
}
