/// The statements a token write runs — a code exchange, a refresh — each inside the one write
/// transaction that the write takes (``Database/writeTokens(_:)``).
///
/// Two implementations answer the same: ``SQLKitTokenTables`` on any engine, and
/// ``SQLiteTokenTables`` straight on SQLite's C API. The token endpoint is the platform's hottest
/// write, and on SQLite building each statement through SQLKit and decoding each row through
/// `Codable` cost nearly as much CPU as SQLite's own work; the second implementation prepares its
/// statements once, binds by position and reads each row's columns in order.
protocol TokenTables {
    /// The authorization code whose hash is `hash`, used or not.
    func code(hash: String) async throws -> AuthorizationCodeRecord?

    /// Marks the code used, with the refresh token family its exchange starts; `false` when it was
    /// used already (another exchange spent it first).
    func spendCode(hash: String, refreshFamily: String?, now: Int) async throws -> Bool

    /// Marks an approved device code used; `false` when it was not approved, or used already.
    func spendDeviceCode(hash: String) async throws -> Bool

    /// The login with this id, revoked or not, with its permissions.
    func authorization(id: String) async throws -> Authorization?

    /// The person with this id.
    func person(id: String) async throws -> UserRecord?

    /// The refresh token whose hash is `hash`, whatever its state.
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?

    /// Marks the refresh token rotated; `false` when it was rotated or revoked already.
    func rotateRefreshToken(hash: String, now: Int) async throws -> Bool

    /// Stores an access token.
    func insert(_ token: AccessTokenRecord) async throws

    /// Stores a refresh token.
    func insert(_ token: RefreshTokenRecord) async throws
}
