/// Where an app keeps tokens between launches: in memory, in files, on the platform, in the
/// Keychain. Each entry has a key, so several people can be logged in on one device.
public protocol TokenCache: Sendable {
    /// Saves `token` under `key`, replacing what was there.
    ///
    /// - Throws: When the token cannot be kept (a folder that cannot be written, a service that
    ///   refuses). A session does not adopt a token it could not cache: the login fails with the error.
    func save(_ token: AccessToken, forKey key: String) async throws
    /// The token saved under `key`, or `nil`. An entry that cannot be read counts as none.
    ///
    /// - Throws: When the cache cannot be asked at all (a key it cannot use, a service that cannot be reached).
    func load(forKey key: String) async throws -> AccessToken?
    /// Deletes the token saved under `key`, if there is one (a log-out).
    ///
    /// - Throws: When the entry exists but cannot be deleted.
    func clear(forKey key: String) async throws
}

/// Tokens kept for the life of the process.
public actor MemoryTokenCache: TokenCache {
    private var tokens: [String: AccessToken] = [:]

    /// An empty cache.
    public init() {}

    /// Keeps `token` under `key`.
    public func save(_ token: AccessToken, forKey key: String) { tokens[key] = token }
    /// The token kept under `key`, if any.
    public func load(forKey key: String) -> AccessToken? { tokens[key] }
    /// Forgets the token kept under `key`.
    public func clear(forKey key: String) { tokens[key] = nil }
}
