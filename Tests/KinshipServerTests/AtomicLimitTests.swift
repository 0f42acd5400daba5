import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

/// Limits that guard a secret hold when the requests arrive all at once: an attempt is counted
/// before its secret is checked, in one atomic step, so N parallel attempts get at most the
/// limit's worth of checks — in one process, and in two processes sharing one database.
@Suite("Limits under parallel requests", .timeLimit(.minutes(3)))
struct AtomicLimitTests {
    @Test("40 wrong passwords at once for one account: 5 are checked, 35 refused", arguments: TestEngine.enabled)
    func parallelBruteForce(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.loginLimits = .init(perAccount: 5, perAddress: 1_000) }) { server in
            _ = try await server.makeUser()
            let statuses = try await server.withBrowsers(40) { browsers in
                try await concurrently(browsers) { _, browser in
                    try await browser.logIn("ada@example.com", password: "wrong password").status
                }
            }
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 35)
            #expect(try await server.browser().logIn("ada@example.com").status == .tooManyRequests, "even the right password waits")
            #expect(await server.metrics.reading(#"kinship_logins_total{outcome="wrong_password"}"#, from: server.platform) == 5)
            #expect(await server.metrics.reading(#"kinship_logins_total{outcome="throttled"}"#, from: server.platform) == 36)
            #expect(await server.metrics.reading(#"kinship_logins_total{outcome="ok"}"#, from: server.platform) == nil)
        }
    }

    @Test("the limit holds across two server processes on one database", arguments: TestEngine.enabled)
    func twoProcesses(engine: TestEngine) async throws {
        let limits = ServerConfiguration.LoginLimits(perAccount: 5, perAddress: 1_000)
        try await withLiveServer(engine, configure: { $0.loginLimits = limits }) { first in
            _ = try await first.makeUser()
            let second = try await Platform.open(
                first.platform.database.location,
                bcryptCost: 4,
                clock: first.clock,
                logger: Logger(label: "second")
            )
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, database: first.platform.database.location)
            configuration.loginLimits = limits
            configuration.secret = first.configuration.secret
            let secondApp = try await KinshipApplication.make(platform: second, configuration: configuration, logger: Logger(label: "second"))
            let statuses = try await secondApp.test(.live) { [configuration] client in
                let other = LiveServer(platform: second, client: client, clock: first.clock, configuration: configuration, metrics: ServerMetrics())
                return try await first.withBrowsers(20) { here in
                    try await other.withBrowsers(20) { there in
                        try await concurrently(here + there) { _, browser in
                            try await browser.logIn("ada@example.com", password: "wrong password").status
                        }
                    }
                }
            }
            await second.close()
            #expect(statuses.filter { $0 == .unauthorized }.count == 5, "\(statuses.map(\.code))")
        }
    }

    @Test("30 sign-ups at once from one address: exactly the limit's 10 are looked at", arguments: TestEngine.enabled)
    func parallelSignUps(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.signupsPerAddressPerMinute = 10 }) { server in
            let statuses = try await server.withBrowsers(30) { browsers in
                try await concurrently(browsers) { index, browser in
                    try await browser.signUp(name: "Person \(index)", email: "person\(index)@example.com").status
                }
            }
            #expect(statuses.filter { $0 == .seeOther }.count == 10, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 20)
            #expect(try await server.platform.users.list().count == 10)
            server.clock.advance(by: 60)
            let token = try #require(try await server.browser().get("/signup").csrfToken)
            #expect(
                try await server.browser().post("/signup", form: ["csrf_token": token]).status != .tooManyRequests,
                "a new minute, a new count"
            )
        }
    }

    @Test("50 token cache look-ups at once from one address: 20 answered, 30 refused", arguments: TestEngine.enabled)
    func parallelTokenCacheGuesses(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.tokenCacheRequestsPerMinute = 20 }) { server in
            let statuses = try await server.withBrowsers(50) { browsers in
                try await concurrently(browsers) { _, browser in
                    try await browser.get("/token_cache/" + Base64URL.random(byteCount: 24)).status
                }
            }
            #expect(statuses.filter { $0 == .notFound }.count == 20, "\(statuses.map(\.code))")
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 30)
        }
    }
}
