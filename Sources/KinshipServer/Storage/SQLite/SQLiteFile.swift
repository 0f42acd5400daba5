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
        let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            close(descriptor)
            return
        }
        guard errno == EEXIST else { throw .cannotCreate(path: path, reason: String(cString: strerror(errno))) }
    }
}

/// Why the SQLite file could not be created.
enum SQLiteFileError: Error, CustomStringConvertible {
    case cannotCreate(path: String, reason: String)

    var description: String {
        switch self {
        case .cannotCreate(let path, let reason):
            "Cannot create the SQLite file \(path): \(reason). Check that its folder exists and is writable, or pass --database."
        }
    }
}
