import KinshipCore
import SQLKit
import Testing

@testable import KinshipServer

/// On SQLite the token endpoint's writes run their statements straight on SQLite's C API
/// (``SQLiteTokenTables``), everything else through SQLKit. Both must read and write the token
/// tables alike: each statement is run both ways on one database and the answers compared, with
/// every optional column filled, so a column one side forgets shows up as a difference.
@Suite("The token tables, straight on SQLite and through SQLKit", .timeLimit(.minutes(2)))
struct TokenTablesTests {
    private static let redirectURI = "http://127.0.0.1/callback"

    /// What both sides answered, the straight one first.
    private struct Answers<Value> {
        let sqlite: Value
        let sqlKit: Value
    }

    /// Runs `body` in a write transaction with each side's tables.
    private static func bothWays<Value: Sendable>(
        _ platform: Platform,
        _ body: @escaping @Sendable (any TokenTables) async throws -> Value
    ) async throws -> Answers<Value> {
        let sqlite = try await platform.database.writeTokens { tables in
            #expect(tables is SQLiteTokenTables, "SQLite's token writes go straight to SQLite")
            return try await body(tables)
        }
        let sqlKit = try await platform.database.write { sql in try await body(SQLKitTokenTables(sql: sql)) }
        return Answers(sqlite: sqlite, sqlKit: sqlKit)
    }

    /// A person with every optional field filled, an administrator, suspended, findable by email.
    private static func fullPerson(_ platform: Platform) async throws -> UserRecord {
        var newUser = NewUser(name: "Ada King Lovelace", email: "ada@example.com", password: "12345678")
        newUser.username = "ada"
        newUser.firstName = "Ada"
        newUser.middleName = "King"
        newUser.lastName = "Lovelace"
        newUser.gender = "female"
        newUser.locale = "en_GB"
        newUser.birthday = "1815-12-10"
        newUser.hometown = "London"
        newUser.location = "Marylebone"
        let ada = try await platform.users.create(newUser)
        try await platform.database.write { sql in
            try await sql.raw(
                "UPDATE users SET is_admin = 1, findable_by_email = 1, suspended_at = 1700000000 WHERE id = \(bind: ada.id)"
            ).run()
        }
        return ada
    }

    /// A code with a PKCE challenge, a nonce, a scope and an auth time, for a login with granted
    /// and declined permissions.
    private static func issueCode(_ platform: Platform, person: UserRecord, appID: String) async throws -> (code: String, login: Authorization) {
        let login = try await platform.authorizations.recordConsent(
            userID: person.id,
            appID: appID,
            granted: [.publicProfile, .email],
            declined: [.userFriends]
        )
        let code = try await platform.codes.issue(
            authorization: login,
            redirectURI: redirectURI,
            codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            login: CodeLogin(requested: [.openID, .publicProfile, .email], nonce: "n-0S6", authTime: platform.clock.now - 5),
            lifetime: 600
        )
        return (code, login)
    }

    @Test("codes, logins and people read the same both ways, and unknown ones are missing both ways")
    func reads() async throws {
        try await withPlatform(.sqlite) { platform in
            let ada = try await Self.fullPerson(platform)
            let (app, _) = try await platform.apps.create(name: "Native", redirectURIs: [Self.redirectURI], isConfidential: false)
            let (code, login) = try await Self.issueCode(platform, person: ada, appID: app.id)
            let bare = "bare login"
            try await platform.database.write { sql in
                try await sql.raw(
                    "INSERT INTO authorizations (id, user_id, app_id, created_at, revoked_at) VALUES (\(bind: bare), \(bind: ada.id), \(bind: app.id), 1, 2)"
                ).run()
            }

            let codes = try await Self.bothWays(platform) { tables in try await tables.code(hash: Secrets.hash(code)).map { String(reflecting: $0) } }
            #expect(codes.sqlite != nil && codes.sqlite == codes.sqlKit)
            #expect(codes.sqlite?.contains("E9Melhoa2") == true && codes.sqlite?.contains("n-0S6") == true)

            let logins = try await Self.bothWays(platform) { tables in try await tables.authorization(id: login.id) }
            #expect(logins.sqlite == logins.sqlKit)
            #expect(logins.sqlite?.permissions == [.publicProfile: .granted, .email: .granted, .userFriends: .declined])

            let bareLogins = try await Self.bothWays(platform) { tables in try await tables.authorization(id: bare) }
            #expect(bareLogins.sqlite == bareLogins.sqlKit)
            #expect(bareLogins.sqlite?.permissions == [:] && bareLogins.sqlite?.revokedAt == 2, "a revoked login without permissions")

            let people = try await Self.bothWays(platform) { tables in try await tables.person(id: ada.id) }
            #expect(people.sqlite == people.sqlKit)
            #expect(people.sqlite?.isAdmin == true && people.sqlite?.suspendedAt == 1_700_000_000 && people.sqlite?.hometown == "London")

            let missing = try await Self.bothWays(platform) { tables in
                [
                    try await tables.code(hash: "nothing") == nil,
                    try await tables.authorization(id: "nothing") == nil,
                    try await tables.person(id: "nothing") == nil,
                    try await tables.refreshToken(hash: "nothing") == nil,
                ]
            }
            #expect(missing.sqlite == [true, true, true, true] && missing.sqlKit == missing.sqlite)
        }
    }

    @Test("a code, a device code and a refresh token are spent once either way, leaving the same rows")
    func spends() async throws {
        try await withPlatform(.sqlite) { platform in
            let ada = try await Self.fullPerson(platform)
            let (app, _) = try await platform.apps.create(name: "Native", redirectURIs: [Self.redirectURI], isConfidential: false)
            let first = try await Self.issueCode(platform, person: ada, appID: app.id)
            let second = try await Self.issueCode(platform, person: ada, appID: app.id)
            let now = platform.clock.now

            let spentCodes = try await Self.bothWays(platform) { tables in
                let hash = Secrets.hash(tables is SQLiteTokenTables ? first.code : second.code)
                return [
                    try await tables.spendCode(hash: hash, refreshFamily: "family", now: now),
                    try await tables.spendCode(hash: hash, refreshFamily: "other family", now: now + 1),
                ]
            }
            #expect(spentCodes.sqlite == [true, false] && spentCodes.sqlKit == spentCodes.sqlite)
            let codeRows = try await platform.database.read { sql in
                try await sql.raw("SELECT used_at, refresh_family_id FROM authorization_codes ORDER BY code_hash").all().map {
                    "\(try $0.decode(column: "used_at", as: Int.self)) \(try $0.decode(column: "refresh_family_id", as: String.self))"
                }
            }
            #expect(codeRows == ["\(now) family", "\(now) family"])

            let deviceCodes = try await [
                Self.approvedDeviceCode(platform, login: first.login), Self.approvedDeviceCode(platform, login: first.login),
            ]
            let spentDeviceCodes = try await Self.bothWays(platform) { tables in
                let hash = Secrets.hash(tables is SQLiteTokenTables ? deviceCodes[0] : deviceCodes[1])
                return [try await tables.spendDeviceCode(hash: hash), try await tables.spendDeviceCode(hash: hash)]
            }
            #expect(spentDeviceCodes.sqlite == [true, false] && spentDeviceCodes.sqlKit == spentDeviceCodes.sqlite)
            let pending = try await platform.deviceCodes.start(appID: app.id, scope: [.publicProfile], lifetime: 600, interval: 5)
            let spentPending = try await Self.bothWays(platform) { tables in try await tables.spendDeviceCode(hash: Secrets.hash(pending.deviceCode))
            }
            #expect(spentPending.sqlite == false && spentPending.sqlKit == false, "a pending device code is not spent")

            let session = RefreshTokenStore.Login(authorization: first.login, requestedScope: [.openID, .email], authTime: now - 5)
            let made = [
                RefreshTokenRecord.make(family: "family", session, seconds: 60, now: now),
                RefreshTokenRecord.make(family: "family", session, seconds: 60, now: now),
            ]
            let rotations = try await Self.bothWays(platform) { tables in
                let record = made[tables is SQLiteTokenTables ? 0 : 1].record
                try await tables.insert(record)
                return [
                    try await tables.rotateRefreshToken(hash: record.tokenHash, now: now + 1),
                    try await tables.rotateRefreshToken(hash: record.tokenHash, now: now + 2),
                ]
            }
            #expect(rotations.sqlite == [true, false] && rotations.sqlKit == rotations.sqlite)
            var stored: [String] = []
            for (_, record) in made {
                let read = try await Self.bothWays(platform) { tables in
                    try await tables.refreshToken(hash: record.tokenHash).map { found in
                        var found = found
                        found.tokenHash = ""
                        return String(reflecting: found)
                    }
                }
                #expect(read.sqlite != nil && read.sqlite == read.sqlKit)
                stored.append(read.sqlite ?? "")
            }
            #expect(stored[0] == stored[1], "the token inserted straight and the one inserted through SQLKit are the same row")
            #expect(stored[0].contains("rotatedAt: Optional(\(now + 1))") && stored[0].contains("authTime: Optional(\(now - 5))"))
        }
    }

    @Test("tokens inserted either way are the same rows")
    func inserts() async throws {
        try await withPlatform(.sqlite) { platform in
            let ada = try await Self.fullPerson(platform)
            let (app, _) = try await platform.apps.create(name: "Native", redirectURIs: [Self.redirectURI], isConfidential: false)
            let (_, login) = try await Self.issueCode(platform, person: ada, appID: app.id)
            let now = platform.clock.now
            let made = (0..<2).map { _ in
                AccessTokenRecord.make(for: login, lifetime: .long, seconds: 60, codeHash: "code", refreshFamily: "family", now: now).record
            }
            _ = try await Self.bothWays(platform) { tables in try await tables.insert(made[tables is SQLiteTokenTables ? 0 : 1]) }
            let rows = try await platform.database.read { sql in
                try await sql.raw("SELECT * FROM access_tokens ORDER BY token_hash").all(decoding: AccessTokenRecord.self).map {
                    var record = $0
                    record.tokenHash = ""
                    return String(reflecting: record)
                }
            }
            #expect(rows.count == 2 && rows[0] == rows[1])
            #expect(rows.first?.contains("refreshFamilyId: Optional(\"family\")") == true && rows.first?.contains("lifetime: \"long\"") == true)
        }
    }

    /// A device code started for the login's app and approved for it.
    private static func approvedDeviceCode(_ platform: Platform, login: Authorization) async throws -> String {
        let started = try await platform.deviceCodes.start(appID: login.appID, scope: [.publicProfile], lifetime: 600, interval: 5)
        let record = try #require(try await platform.deviceCodes.find(deviceCode: started.deviceCode))
        #expect(try await platform.deviceCodes.approve(record, authorization: login, authTime: platform.clock.now))
        return started.deviceCode
    }
}
