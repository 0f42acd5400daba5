import Foundation
import KinshipCore
import Logging
import SQLKit
import Testing

@testable import KinshipServer

/// A code or device code is spent in the same transaction that stores its tokens: spent exactly
/// when they exist, whatever happens around it.
@Suite("Redeeming a one-time grant", .timeLimit(.minutes(3)))
struct RedemptionTests {
    private static let redirectURI = "http://127.0.0.1/callback"

    /// Ada's login to a public app and a code it issued, asking for an id_token.
    private static func issueCode(_ platform: Platform) async throws -> (grant: OneTimeGrant, request: RedemptionStore.Request) {
        let ada = try await platform.users.create(NewUser(name: "Ada Lovelace", email: "ada@example.com", password: "12345678"))
        let (app, _) = try await platform.apps.create(name: "Native", redirectURIs: [redirectURI], isConfidential: false)
        let authorization = try await platform.authorizations.recordConsent(
            userID: ada.id,
            appID: app.id,
            granted: [.publicProfile, .email],
            declined: []
        )
        let login = CodeLogin(requested: [.openID, .publicProfile, .email], nonce: "n-0S6", authTime: platform.clock.now)
        let code = try await platform.codes.issue(
            authorization: authorization,
            redirectURI: redirectURI,
            codeChallenge: nil,
            login: login,
            lifetime: 600
        )
        let grant = OneTimeGrant.code(hash: Secrets.hash(code))
        let request = RedemptionStore.Request(
            grant: grant,
            authorizationID: authorization.id,
            login: login,
            refreshes: true,
            readsPerson: true,
            lifetimes: .init(accessToken: 3_600, refreshToken: 90 * 86_400)
        )
        return (grant, request)
    }

    /// How many access and refresh tokens the grant's exchange stored, and whether the code is spent.
    private static func stored(_ grant: OneTimeGrant, _ platform: Platform) async throws -> (access: Int, refresh: Int, spent: Bool) {
        try await platform.database.read { sql in
            let access =
                try await sql.raw("SELECT COUNT(*) AS n FROM access_tokens WHERE code_hash = \(bind: grant.hash)")
                .first(decodingColumn: "n", as: Int.self) ?? 0
            let refresh =
                try await sql.raw(
                    """
                    SELECT COUNT(*) AS n FROM refresh_tokens WHERE family_id IN
                        (SELECT refresh_family_id FROM access_tokens WHERE code_hash = \(bind: grant.hash))
                    """
                ).first(decodingColumn: "n", as: Int.self) ?? 0
            let usedAt =
                try await sql.raw("SELECT used_at FROM authorization_codes WHERE code_hash = \(bind: grant.hash)")
                .first(decodingColumn: "used_at", as: Int?.self) ?? nil
            return (access, refresh, usedAt != nil)
        }
    }

    @Test(
        "one code redeemed by 16 exchanges at once: one gets its tokens, every other is told it was spent",
        arguments: TestEngine.enabled
    )
    func concurrentRedemptions(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (grant, request) = try await Self.issueCode(platform)
            let outcomes = try await withThrowingTaskGroup(of: RedemptionStore.Outcome.self) { group in
                for _ in 0..<16 { group.addTask { try await platform.redemptions.redeem(request) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let redeemed = outcomes.compactMap { if case .redeemed(let tokens) = $0 { tokens } else { nil } }
            #expect(redeemed.count == 1)
            #expect(outcomes.filter { if case .alreadySpent = $0 { true } else { false } }.count == 15)
            let tokens = try #require(redeemed.first)
            #expect(tokens.accessToken.hasPrefix("kat_"))
            #expect(tokens.refreshToken?.hasPrefix("krt_") == true)
            #expect(tokens.person?.email == "ada@example.com", "the person is read for the id_token")
            let counts = try await Self.stored(grant, platform)
            #expect(counts.access == 1 && counts.refresh == 1 && counts.spent)
        }
    }

    @Test(
        "one code exchanged by 16 token requests at once, each reading it in its write: one gets its tokens, every other finds it spent",
        arguments: TestEngine.enabled
    )
    func concurrentCodeExchanges(engine: TestEngine) async throws {
        struct Spent: Error {}
        try await withPlatform(engine) { platform in
            let (grant, request) = try await Self.issueCode(platform)
            let outcomes = try await withThrowingTaskGroup(of: Result<RedemptionStore.Outcome?, any Error>.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        do {
                            let exchanged = try await platform.redemptions.redeemCode(hash: grant.hash) { record in
                                guard record.usedAt == nil else { throw Spent() }
                                return request
                            }
                            return .success(exchanged?.outcome)
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let redeemed = outcomes.compactMap { outcome -> RedemptionStore.Redeemed? in
                if case .success(.redeemed(let tokens)?) = outcome { tokens } else { nil }
            }
            #expect(redeemed.count == 1)
            // Each other exchange finds the code spent: as it reads it, or (on PostgreSQL, where it
            // read the code before the first committed) as it tries to spend it.
            let refused = outcomes.filter { outcome in
                switch outcome {
                case .failure(let error): error is Spent
                case .success(.alreadySpent?): true
                default: false
                }
            }
            #expect(refused.count == 15)
            let counts = try await Self.stored(grant, platform)
            #expect(counts.access == 1 && counts.refresh == 1 && counts.spent)
        }
    }

    @Test("a login removed before its code is exchanged: the code is spent and no token is stored", arguments: TestEngine.enabled)
    func removedLogin(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (grant, request) = try await Self.issueCode(platform)
            try await platform.authorizations.revokeAll(request.authorizationID, notifyingApp: false)
            guard case .loginGone = try await platform.redemptions.redeem(request) else {
                Issue.record("a removed login still earned tokens")
                return
            }
            let counts = try await Self.stored(grant, platform)
            #expect(counts.access == 0 && counts.refresh == 0)
            #expect(counts.spent, "the code cannot be tried again")
        }
    }

    @Test("a failure while the tokens are stored leaves the code unspent, and a retry gets them", arguments: TestEngine.enabled)
    func failureHalfWay(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (grant, request) = try await Self.issueCode(platform)
            try await platform.database.write { sql in try await sql.raw("ALTER TABLE refresh_tokens RENAME TO refresh_tokens_away").run() }
            await #expect(throws: (any Error).self) { try await platform.redemptions.redeem(request) }
            try await platform.database.write { sql in try await sql.raw("ALTER TABLE refresh_tokens_away RENAME TO refresh_tokens").run() }
            let afterFailure = try await Self.stored(grant, platform)
            #expect(afterFailure.access == 0 && afterFailure.refresh == 0, "the access token written before the failure was rolled back")
            #expect(!afterFailure.spent, "the code was not spent without its tokens")

            guard case .redeemed = try await platform.redemptions.redeem(request) else {
                Issue.record("the retry did not redeem the code")
                return
            }
            let afterRetry = try await Self.stored(grant, platform)
            #expect(afterRetry.access == 1 && afterRetry.refresh == 1 && afterRetry.spent)
        }
    }

    @Test(
        "a spent code names the refresh token family it started; a replay revokes that family, reading tokens through indexes",
        arguments: TestEngine.enabled
    )
    func spentCodeNamesItsFamily(engine: TestEngine) async throws {
        try await withPlatform(engine, recordingStatements: true) { platform in
            let (grant, request) = try await Self.issueCode(platform)
            guard case .redeemed(let tokens) = try await platform.redemptions.redeem(request) else {
                Issue.record("the code was not redeemed")
                return
            }
            let family = try await platform.database.read { sql in try await CodeStore.refreshFamily(ofCodeHash: grant.hash, in: sql) }
            let accessToken = try await platform.tokens.find(token: tokens.accessToken)
            #expect(family != nil && family == accessToken?.refreshFamilyId)
            platform.database.forgetRecordedStatements()
            try await platform.tokens.revokeTokens(issuedFromCodeHash: grant.hash)
            let scans = try await platform.database.recordedQueryPlans().filter { !$0.fullScans.isEmpty }
            #expect(scans.isEmpty, "statements that read whole tables: \(scans.map(\.sql))")
            #expect(try await platform.tokens.find(token: tokens.accessToken)?.revokedAt != nil)
            let refreshToken = try await platform.refreshTokens.find(token: try #require(tokens.refreshToken))
            #expect(refreshToken?.revokedAt != nil)
        }
    }

    @Test(
        "codes spent before codes named their family: the upgrade names it, so a replay still revokes the family",
        arguments: TestEngine.enabled
    )
    func upgradeNamesFamilies(engine: TestEngine) async throws {
        let scratch = try await engine.makeScratchDatabase()
        do {
            try await Self.checkUpgrade(scratch.location)
        } catch {
            await scratch.remove()
            throw error
        }
        await scratch.remove()
    }

    /// Redeems a code at `location`, takes the schema back to before version 16, opens it again
    /// (which upgrades it) and replays the code.
    private static func checkUpgrade(_ location: DatabaseLocation) async throws {
        let open = { try await Platform.open(location, bcryptCost: 4, clock: ManualClock(), logger: Logger(label: "test")) }
        let before = try await open()
        let (grant, request) = try await issueCode(before)
        let redeemed = try await before.redemptions.redeem(request)
        try await before.database.write { sql in
            for statement in [
                "DELETE FROM schema_migrations WHERE version = 16",
                "DROP INDEX access_tokens_by_code", "CREATE INDEX access_tokens_by_code ON access_tokens (code_hash)",
                "DROP INDEX access_tokens_by_refresh_family",
                "CREATE INDEX access_tokens_by_refresh_family ON access_tokens (refresh_family_id)",
                "ALTER TABLE authorization_codes DROP COLUMN refresh_family_id",
            ] {
                try await sql.raw(SQLQueryString(statement)).run()
            }
        }
        await before.close()
        guard case .redeemed(let tokens) = redeemed else {
            Issue.record("the code was not redeemed")
            return
        }

        let after = try await open()
        do {
            try await after.tokens.revokeTokens(issuedFromCodeHash: grant.hash)
            #expect(try await after.tokens.find(token: tokens.accessToken)?.revokedAt != nil, "the exchange's access token")
            let refreshToken = try await after.refreshTokens.find(token: try #require(tokens.refreshToken))
            #expect(refreshToken?.revokedAt != nil, "its refresh token")
        } catch {
            await after.close()
            throw error
        }
        await after.close()
    }
}
