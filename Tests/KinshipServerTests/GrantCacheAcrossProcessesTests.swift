import Foundation
import HTTPTypes
import KinshipCore
import Logging
import SQLKit
import Testing

@testable import KinshipServer

/// Each `kinship serve` process keeps token checks in memory; a revocation made through another
/// process on the same database must still be refused at once.
@Suite("Token checks cached across processes", .timeLimit(.minutes(3)))
struct GrantCacheAcrossProcessesTests {
    /// The bound the platform promises between a revocation in one process and its refusal in another.
    static let bound = Duration.milliseconds(100)

    @Test("a revocation through one process is refused by another, which caches its checks, within 100 ms", arguments: TestEngine.enabled)
    func revocationBound(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email])
            try await withSecondProcess(of: server, configure: { _ in }) { other in
                let generation = try #require(other.platform.grantGeneration)
                try await Self.waitUntilTrusted(generation)
                #expect(try await other.graph("/me", token: token).0 == .ok)
                #expect(try await other.graph("/me", token: token).0 == .ok, "answered from the other process's cache")
                let (revoked, _) = try await server.graph("/me/permissions", token: token, method: .delete)
                #expect(revoked == .ok)
                let served = try await Self.servedAfterRevocation(token, by: other)
                #expect(served <= Self.bound, "the other process answered a request started \(served) after the revocation")
            }
        }
    }

    @Test(
        "with its notification connection lost, a process reads every check from the database: nothing stale",
        .enabled(if: TestEngine.enabled.contains(.postgres), "PostgreSQL only: SQLite processes share a counter in a file")
    )
    func lostNotifications() async throws {
        try await withLiveServer(.postgres) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email])
            // Long enough that a process trusting its cache while deaf would be caught serving the token.
            try await withSecondProcess(of: server, configure: { $0.grantListenerRetryDelay = .seconds(3) }) { other in
                let generation = try #require(other.platform.grantGeneration)
                try await Self.waitUntilTrusted(generation)
                #expect(try await other.graph("/me", token: token).0 == .ok)
                #expect(try await other.graph("/me", token: token).0 == .ok)
                let name = generation.listenerName
                let ended = try await server.platform.database.read { sql in
                    try await sql.raw("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = \(bind: name)")
                        .all(decodingColumn: "ended", as: Bool.self)
                }
                #expect(ended == [true], "the other process's listening connection was found and ended")
                let deadline = ContinuousClock.now + .seconds(5)
                while generation.isTrusted, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
                #expect(!generation.isTrusted, "the lost connection was noticed")
                #expect(try await other.graph("/me", token: token).0 == .ok, "checked while deaf: must not be kept")
                let (revoked, _) = try await server.graph("/me/permissions", token: token, method: .delete)
                #expect(revoked == .ok)
                #expect(try await other.graph("/me", token: token).0 == .unauthorized, "refused at once, though no notification could arrive")
                try await Self.waitUntilTrusted(generation)
                #expect(generation.isTrusted, "listening again after the retry delay")
            }
        }
    }

    /// Waits (up to 10 s) until the process hears the others' changes, so its checks are cached.
    static func waitUntilTrusted(_ generation: GrantGeneration) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !generation.isTrusted, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(generation.isTrusted, "the process listens for grant changes")
    }

    /// How long after now `server` still answers `/me` with `token`: asked back to back (up to
    /// 2 s), the start of the last request it answered, or zero when the first is refused. A
    /// request's own time on a busy machine does not count against the bound: one that started
    /// after the bound and still got an answer does.
    static func servedAfterRevocation(_ token: String, by server: LiveServer) async throws -> Duration {
        let revoked = ContinuousClock.now
        var lastServed = Duration.zero
        while ContinuousClock.now - revoked < .seconds(2) {
            let started = ContinuousClock.now
            let status = try await server.graph("/me", token: token).0
            if status == .unauthorized { return lastServed }
            lastServed = started - revoked
        }
        Issue.record("still answered 2 s after the revocation")
        return lastServed
    }
}
