#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The database file on disk.
enum SQLiteFile {
    /// Creates an empty file at `path`, readable and writable by its owner only, unless one exists.
    /// SQLite gives the `-wal` and `-shm` files beside it the same permissions.
    static func createPrivately(at path: String) throws(SQLiteFileError) {
        do {
            try createNew(at: path)
        } catch .exists {
            return
        }
    }

    /// Creates an empty file at `path`, readable and writable by its owner only; fails with
    /// ``SQLiteFileError/exists(path:)`` when something is there already.
    static func createNew(at path: String) throws(SQLiteFileError) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw errno == EEXIST ? .exists(path: path) : .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        close(descriptor)
    }
}

/// Why the SQLite file could not be created.
enum SQLiteFileError: Error, CustomStringConvertible {
    case exists(path: String)
    case cannotCreate(path: String, reason: String)

    var description: String {
        switch self {
        case .exists(let path):
            "\(path) exists already."
        case .cannotCreate(let path, let reason):
            "Cannot create the SQLite file \(path): \(reason). Check that its folder exists and is writable, or pass --database."
        }
    }
}
