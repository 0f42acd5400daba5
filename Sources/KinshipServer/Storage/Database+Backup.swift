/// A copy `kinship backup` made.
public struct DatabaseBackup: Sendable, Equatable {
    /// Where the copy is.
    public let path: String
    /// Its size on disk.
    public let bytes: Int
}

/// Why a backup was not made.
public enum DatabaseBackupError: Error, CustomStringConvertible, Equatable {
    case postgres
    case noDatabase(String)
    case cannotCreate(String, String)
    case damagedCopy(String)

    public var description: String {
        switch self {
        case .postgres:
            "kinship backup copies an SQLite database. Back up PostgreSQL with its own tools while the servers run, e.g. "
                + "pg_dump --format=custom --file=kinship.dump 'postgres://…'; restore with pg_restore."
        case .noDatabase(let path):
            "There is no SQLite database at \(path); pass the one the server uses with --database."
        case .cannotCreate(let path, let reason):
            "Cannot create the backup file \(path): \(reason). A backup never overwrites a file: pick a new name."
        case .damagedCopy(let problems):
            "The copy failed SQLite's integrity check (\(problems)); it was removed. Check the disk, then try again."
        }
    }
}

extension Database {
    /// Writes a consistent copy of the SQLite database at `location` to `destination` while
    /// servers keep reading and writing it (see ``SQLiteBackup``); the copy passes
    /// `PRAGMA integrity_check`. The database is not opened as a ``Database``: a mistyped path
    /// makes no new empty database.
    ///
    /// - Throws: ``DatabaseBackupError`` on PostgreSQL (use `pg_dump`), when `destination`
    ///   exists or cannot be created, or when the copy is damaged; ``DatabaseUnavailable`` when
    ///   the database stays locked.
    public static func backUp(_ location: DatabaseLocation, to destination: String) async throws -> DatabaseBackup {
        guard case .sqlite(let source) = location else { throw DatabaseBackupError.postgres }
        do {
            return try await SQLiteBackup.copy(from: source, to: destination)
        } catch let error as DatabaseBackupError {
            throw error
        } catch {
            throw DatabaseUnavailable(error) ?? error
        }
    }
}
