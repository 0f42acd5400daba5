import Foundation
import KinshipCore
import KinshipServer
import Logging
import Testing

@Suite("id_token signing keys", .timeLimit(.minutes(3)))
struct SigningKeyRotationTests {
    @Test(
        "a rotated key is published first, signs from its activation, and the old one stays published until its id_tokens expire",
        arguments: TestEngine.enabled
    )
    func rotation(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let first = try #require(try await server.openIDLogin(app, scope: [.openID])["id_token"] as? String)
            let oldKID = try #require(try keyID(of: first))

            let keys = SigningKeys(platform: server.platform, secret: server.configuration.secret, idTokenLifetime: 3600)
            let rotated = try await keys.rotate()
            #expect(rotated.status == .pending)
            #expect(rotated.activatesAt == server.clock.now + SigningKeys.defaultActivationDelay)
            // The rotation ran outside the server (as `kinship keys rotate` does): the server reads
            // the keys again within a minute, long before the new key activates.
            server.clock.advance(by: 60)
            #expect(try await server.publishedKeys().kids == [oldKID, rotated.kid], "published before it signs")
            let beforeActivation = try #require(try await server.openIDLogin(app, scope: [.openID])["id_token"] as? String)
            #expect(try keyID(of: beforeActivation) == oldKID)

            server.clock.advance(by: SigningKeys.defaultActivationDelay - 60)
            let after = try #require(try await server.openIDLogin(app, scope: [.openID])["id_token"] as? String)
            #expect(try keyID(of: after) == rotated.kid)
            _ = try await server.verifiedIDToken(first)
            _ = try await server.verifiedIDToken(after)
            let statuses = try await keys.list().map(\.status)
            #expect(statuses == [.retired, .signing])

            server.clock.advance(by: 3600 + 60)
            #expect(try await server.publishedKeys().kids == [rotated.kid], "gone once every id_token it signed has expired")
            await #expect(throws: (any Error).self) { _ = try await server.verifiedIDToken(first) }
        }
    }

    @Test("--now signs with the new key at once; a key sealed with another secret is refused with advice", arguments: TestEngine.enabled)
    func immediateAndWrongSecret(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let keys = SigningKeys(platform: server.platform, secret: server.configuration.secret, idTokenLifetime: 3600)
            let rotated = try await keys.rotate(activationDelay: 0)
            #expect(rotated.status == .signing)
            server.clock.advance(by: 61)
            let token = try #require(try await server.openIDLogin(app, scope: [.openID])["id_token"] as? String)
            #expect(try keyID(of: token) == rotated.kid)

            let stranger = SigningKeys(platform: server.platform, secret: .generate(), idTokenLifetime: 3600)
            await #expect {
                try await stranger.prepare()
            } throws: { error in
                String(describing: error).contains("--secret-file")
            }
        }
    }

    @Test("processes starting together on one database agree on one first key", arguments: TestEngine.enabled)
    func firstKeyOnce(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let secret = ServerSecret.generate()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await SigningKeys(platform: platform, secret: secret, idTokenLifetime: 3600).prepare()
                    }
                }
                try await group.waitForAll()
            }
            let keys = try await SigningKeys(platform: platform, secret: secret, idTokenLifetime: 3600).list()
            #expect(keys.count == 1)
        }
    }
}
