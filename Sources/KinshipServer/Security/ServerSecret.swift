import Crypto
import Foundation
import KinshipCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one secret every process of a deployment shares, kept outside the database: the keys the
/// platform needs (the CSRF key, built-in apps' client secrets) are derived from it, so someone
/// who reads the database — or a backup of it — holds none of them.
///
/// It is a file of one line, 32 random bytes in base64url, readable by its owner only. With SQLite
/// it is created beside the database on first start; several processes on one PostgreSQL must be
/// given the same file.
public struct ServerSecret: Sendable {
    /// The secret's bytes (`SymmetricKey` is not `Sendable`).
    private let bytes: [UInt8]

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A new random secret, for one process that nobody restarts: a test.
    public static func generate() -> ServerSecret {
        ServerSecret(bytes: SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
    }

    /// Reads the secret from `path`; when there is no file and `createIfMissing` is set, writes a
    /// new one there first (mode 0600).
    public static func load(from path: String, createIfMissing: Bool) throws(ServerSecretError) -> ServerSecret {
        if createIfMissing, !FileManager.default.fileExists(atPath: path) {
            do {
                try create(at: path)
            } catch .exists {
                // Another process created it first: read theirs.
            }
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw createIfMissing ? .unreadable(path: path) : .missing(path: path)
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let bytes = Base64URL.decode(text), bytes.count >= 32 else { throw .malformed(path: path) }
        return ServerSecret(bytes: Array(bytes))
    }

    /// Whether the file at `path` can be read by anyone but its owner.
    public static func isShared(_ path: String) -> Bool {
        guard let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int else { return false }
        return permissions & 0o077 != 0
    }

    /// Writes a new random secret to a new file at `path` (mode 0600); an existing file is an error.
    public static func create(at path: String) throws(ServerSecretError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else {
            throw errno == EEXIST ? .exists(path: path) : .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }
        let line = Array((Base64URL.random(byteCount: 32) + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count else {
            throw .cannotCreate(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// A key for one purpose, derived with HKDF-SHA256; the same purpose gives the same key in every
    /// process that holds this secret.
    func key(for purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: bytes), info: Data("kinship \(purpose)".utf8), outputByteCount: 32)
    }

    /// A secret string for one purpose (base64url), derived like ``key(for:)``.
    func secret(for purpose: String) -> String {
        key(for: purpose).withUnsafeBytes { Base64URL.encode($0) }
    }
}

/// Why the server secret could not be had.
public enum ServerSecretError: Error, CustomStringConvertible {
    case missing(path: String)
    case unreadable(path: String)
    case malformed(path: String)
    case cannotCreate(path: String, reason: String)
    case exists(path: String)

    public var description: String {
        switch self {
        case .missing(let path):
            "The server secret file \(path) does not exist. Every process sharing a PostgreSQL database needs the same one: "
                + "create it once with `kinship secret generate --output \(path)` and copy it to each host."
        case .unreadable(let path):
            "The server secret file \(path) cannot be read. Check its owner and permissions (0600, owned by the server's user)."
        case .malformed(let path):
            "The server secret file \(path) does not hold a secret (one line of at least 32 bytes in base64url). "
                + "Restore it from your backup, or create a new one with `kinship secret generate` (every browser form in progress expires)."
        case .exists(let path):
            "\(path) exists already; a server secret is never overwritten (every process using it would lose its keys). "
                + "Choose another path, or remove the file first if you really mean to replace it."
        case .cannotCreate(let path, let reason):
            "Cannot create the server secret file \(path): \(reason). Check that its folder exists and is writable, or pass --secret-file."
        }
    }
}
