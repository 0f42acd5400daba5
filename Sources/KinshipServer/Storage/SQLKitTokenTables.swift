import SQLKit

/// The token tables through SQLKit, in the caller's transaction: the statements the stores run
/// everywhere else, on any engine (PostgreSQL's token writes go this way).
struct SQLKitTokenTables: TokenTables {
    let sql: any SQLDatabase

    func code(hash: String) async throws -> AuthorizationCodeRecord? {
        try await CodeStore.find(codeHash: hash, in: sql)
    }

    func spendCode(hash: String, refreshFamily: String?, now: Int) async throws -> Bool {
        try await CodeStore.spend(codeHash: hash, refreshFamily: refreshFamily, now: now, in: sql)
    }

    func spendDeviceCode(hash: String) async throws -> Bool {
        try await DeviceCodeStore.spend(deviceCodeHash: hash, in: sql)
    }

    func authorization(id: String) async throws -> Authorization? {
        try await AuthorizationStore.find(id: id, in: sql)
    }

    func person(id: String) async throws -> UserRecord? {
        try await UserStore.find(id: id, in: sql)
    }

    func refreshToken(hash: String) async throws -> RefreshTokenRecord? {
        try await RefreshTokenStore.find(tokenHash: hash, in: sql)
    }

    func rotateRefreshToken(hash: String, now: Int) async throws -> Bool {
        try await RefreshTokenStore.rotate(tokenHash: hash, now: now, in: sql)
    }

    func insert(_ token: AccessTokenRecord) async throws {
        try await token.insert(into: sql)
    }

    func insert(_ token: RefreshTokenRecord) async throws {
        try await token.insert(into: sql)
    }
}
