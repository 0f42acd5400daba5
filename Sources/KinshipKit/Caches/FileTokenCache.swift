import Foundation

/// Tokens kept as JSON files, one per key, in a folder only the user can read (files mode 0600).
///
/// Writes are atomic (a temporary file renamed into place), so a crash never leaves half a token.
/// A file that cannot be read is reported to `onProblem`, moved aside as `KEY.json.corrupt` (so
/// nothing is lost), and treated as no token.
public struct FileTokenCache: TokenCache {
    /// The folder the token files live in (made `0700`; each file `0600`).
    public let folder: URL
    private let onProblem: @Sendable (TokenCacheError) -> Void

    /// A cache in `folder`; `onProblem` hears about files that could not be read, which are moved aside.
    public init(folder: URL, onProblem: @escaping @Sendable (TokenCacheError) -> Void = { _ in }) {
        self.folder = folder
        self.onProblem = onProblem
    }

    /// `$XDG_CONFIG_HOME/kinship/tokens` (or `~/.config/kinship/tokens`).
    public static func defaultFolder(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base =
            environment["XDG_CONFIG_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config")
        return base.appendingPathComponent("kinship/tokens")
    }

    /// Writes the token to `KEY.json` atomically, readable by the owner only.
    ///
    /// - Throws: ``TokenCacheError/invalidKey(_:)`` for a key that cannot name a file,
    ///   ``TokenCacheError/cannotWrite(_:)`` when the folder cannot be written.
    public func save(_ token: AccessToken, forKey key: String) async throws {
        let file = try url(forKey: key)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let temporary = folder.appendingPathComponent(".\(key).\(UUID().uuidString).tmp")
        guard
            FileManager.default.createFile(
                atPath: temporary.path,
                contents: try encoder.encode(token),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw TokenCacheError.cannotWrite(file.path) }
        if rename(temporary.path, file.path) != 0 {
            try? FileManager.default.removeItem(at: temporary)
            throw TokenCacheError.cannotWrite(file.path)
        }
    }

    /// The token stored under `key`; `nil` when there is none or its file could not be read (then the file is
    /// moved aside and `onProblem` is told).
    ///
    /// - Throws: ``TokenCacheError/invalidKey(_:)`` for a key that cannot name a file.
    public func load(forKey key: String) async throws -> AccessToken? {
        let file = try url(forKey: key)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(AccessToken.self, from: data)
        } catch {
            let aside = file.appendingPathExtension("corrupt")
            try? FileManager.default.removeItem(at: aside)
            try? FileManager.default.moveItem(at: file, to: aside)
            onProblem(.corrupt(path: file.path, movedTo: aside.path))
            return nil
        }
    }

    /// Deletes the token stored under `key`, if there is one.
    ///
    /// - Throws: ``TokenCacheError/invalidKey(_:)`` for a key that cannot name a file, or the file system's error
    ///   when the file cannot be deleted.
    public func clear(forKey key: String) async throws {
        let file = try url(forKey: key)
        if FileManager.default.fileExists(atPath: file.path) { try FileManager.default.removeItem(at: file) }
    }

    private func url(forKey key: String) throws(TokenCacheError) -> URL {
        guard !key.isEmpty, key.count <= 128, key.first != ".",
            key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { throw .invalidKey(key) }
        return folder.appendingPathComponent(key + ".json")
    }
}

/// What can go wrong with a token cache.
public enum TokenCacheError: Error, Equatable, CustomStringConvertible {
    /// The key has characters other than letters, digits, dots, dashes and underscores.
    case invalidKey(String)
    /// The cache folder or file cannot be written; the reason says why.
    case cannotWrite(String)
    /// A cache file could not be read; it was moved to `movedTo` and the cache answered "no token".
    case corrupt(path: String, movedTo: String)

    /// A sentence for the developer that says what to do.
    public var description: String {
        switch self {
        case .invalidKey(let key): "\"\(key)\" cannot name a cache entry: use letters, digits, dots, dashes and underscores."
        case .cannotWrite(let path): "Cannot write the token cache file \(path)."
        case .corrupt(let path, let aside): "The token cache file \(path) could not be read; it was moved to \(aside) and ignored."
        }
    }
}
