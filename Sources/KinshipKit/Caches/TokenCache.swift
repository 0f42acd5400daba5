/// Where an app keeps tokens between launches: in memory, in files, on the platform, in the
/// Keychain. Each entry has a key, so several people can be logged in on one device.
public protocol TokenCache: Sendable {
    func save(_ token: AccessToken, forKey key: String) async throws
    /// The token saved under `key`, or `nil`. An entry that cannot be read counts as none.
    func load(forKey key: String) async throws -> AccessToken?
    func clear(forKey key: String) async throws
}

/// Tokens kept for the life of the process.
public actor MemoryTokenCache: TokenCache {
    private var tokens: [String: AccessToken] = [:]

    public init() {}

    public func save(_ token: AccessToken, forKey key: String) { tokens[key] = token }
    public func load(forKey key: String) -> AccessToken? { tokens[key] }
    public func clear(forKey key: String) { tokens[key] = nil }
}
