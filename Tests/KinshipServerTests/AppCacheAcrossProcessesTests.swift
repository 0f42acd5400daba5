import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// Each `kinship serve` process keeps the apps it read in memory; a change made through another
/// process on the same database must be used at once all the same.
@Suite("Apps cached across processes", .timeLimit(.minutes(3)))
struct AppCacheAcrossProcessesTests {
    @Test(
        "a rotated secret, a removed redirect URI and a deleted app reach another process, which caches apps, within 100 ms",
        arguments: TestEngine.enabled
    )
    func changesReachTheOtherProcess(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp(confidential: true, redirectURIs: ["http://127.0.0.1/callback", "https://app.example.com/cb"])
            try await withSecondProcess(of: server, configure: { _ in }) { other in
                try await GrantCacheAcrossProcessesTests.waitUntilTrusted(try #require(other.platform.grantGeneration))
                let credentials: FormParameters = ["grant_type": "client_credentials", "client_id": app.id, "client_secret": app.secret]
                #expect(try await other.postForm("/oauth/access_token", credentials).0 == .ok)
                #expect(try await other.postForm("/oauth/access_token", credentials).0 == .ok, "the app read from the other process's cache")

                let newSecret = try await server.platform.apps.rotateSecret(appID: app.id, graceSeconds: 0)
                let secretUsed = try await Self.stillAccepted(by: other) { try await other.postForm("/oauth/access_token", credentials).0 == .ok }
                #expect(secretUsed <= GrantCacheAcrossProcessesTests.bound, "the old secret was accepted \(secretUsed) after the rotation")

                let removed = "https://app.example.com/cb"
                let dialog = server.dialogURI(app, scope: [.email], redirectURI: removed)
                #expect(try await other.browser().get(dialog).status != .badRequest, "the redirect URI is registered")
                try await server.platform.apps.update(
                    appID: app.id,
                    .init(name: "Demo", isConfidential: true, redirectURIs: ["http://127.0.0.1/callback"], mayPublish: true, mayChat: true)
                )
                let uriUsed = try await Self.stillAccepted(by: other) { try await other.browser().get(dialog).status != .badRequest }
                #expect(uriUsed <= GrantCacheAcrossProcessesTests.bound, "the removed redirect URI was accepted \(uriUsed) after the change")

                let newCredentials: FormParameters = ["grant_type": "client_credentials", "client_id": app.id, "client_secret": newSecret]
                #expect(try await other.postForm("/oauth/access_token", newCredentials).0 == .ok)
                #expect(try await server.platform.apps.delete(appID: app.id))
                let deletedUsed = try await Self.stillAccepted(by: other) { try await other.postForm("/oauth/access_token", newCredentials).0 == .ok }
                #expect(deletedUsed <= GrantCacheAcrossProcessesTests.bound, "the deleted app was known \(deletedUsed) after its deletion")
            }
        }
    }

    /// How long after now `accepted` stays true when asked back to back (up to 2 s): the start of
    /// the last request it was true for, or zero when the first one is already false.
    static func stillAccepted(by server: LiveServer, _ accepted: () async throws -> Bool) async throws -> Duration {
        let changed = ContinuousClock.now
        var lastAccepted = Duration.zero
        while ContinuousClock.now - changed < .seconds(2) {
            let started = ContinuousClock.now
            if try await !accepted() { return lastAccepted }
            lastAccepted = started - changed
        }
        Issue.record("still accepted 2 s after the change")
        return lastAccepted
    }
}
