import Foundation
import KinshipCore
import SQLKit
import Testing

@testable import KinshipServer

@Suite("App callback settings", .timeLimit(.minutes(3)))
struct CallbackSettingsTests {
    @Test(
        "callback URLs must be https or loopback http, absolute, without credentials or fragment",
        arguments: [
            "http://app.example.com/deauthorize", "ftp://127.0.0.1/x", "/deauthorize", "https://user:pw@app.example.com/x",
            "https://app.example.com/x#part", "https://", "https://app.example.com/" + String(repeating: "a", count: 2000),
        ]
    )
    func refusedURLs(url: String) async throws {
        try await withPlatform(.sqlite) { platform in
            let (app, _) = try await platform.apps.create(name: "A", redirectURIs: [], isConfidential: true)
            let settings = AppCallbackSettings(platform: platform, secret: .generate())
            await #expect(throws: AppError.self) { try await settings.update(appID: app.id, .init(deauthorizeURL: url)) }
            #expect(try await platform.apps.find(id: app.id)?.deauthorizeCallbackURL == nil, "nothing was changed")
        }
    }

    @Test("the signing secret is shown once, kept sealed, bound to its app, and replaced on request", arguments: TestEngine.enabled)
    func signingSecret(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (app, _) = try await platform.apps.create(name: "A", redirectURIs: [], isConfidential: true)
            let (other, _) = try await platform.apps.create(name: "B", redirectURIs: [], isConfidential: true)
            let serverSecret = ServerSecret.generate()
            let settings = AppCallbackSettings(platform: platform, secret: serverSecret)
            let (updated, secret) = try await settings.update(
                appID: app.id,
                .init(deauthorizeURL: "https://app.example.com/deauthorize", dataDeletionURL: "http://127.0.0.1:8000/d")
            )
            let first = try #require(secret)
            #expect(first.hasPrefix("kss_"))
            #expect(updated.deauthorizeCallbackURL == "https://app.example.com/deauthorize")
            #expect(settings.signingSecret(of: updated) == first)

            let (_, again) = try await settings.update(appID: app.id, .init(dataDeletionURL: ""))
            #expect(again == nil, "shown once")
            let cleared = try #require(try await platform.apps.find(id: app.id))
            #expect(cleared.dataDeletionCallbackURL == nil)
            #expect(cleared.deauthorizeCallbackURL == "https://app.example.com/deauthorize", "a URL not named stays")

            let stored = try await platform.database.read { sql in
                try await sql.raw("SELECT * FROM apps WHERE id = \(bind: app.id)").first()
            }
            let sealed = try #require(try stored?.decode(column: "sealed_signing_secret", as: String?.self))
            #expect(!sealed.contains(first) && !sealed.contains(String(first.dropFirst(4))), "the database never holds it in clear")
            var moved = try #require(try await platform.apps.find(id: other.id))
            moved.sealedSigningSecret = sealed
            #expect(settings.signingSecret(of: moved) == nil, "a sealed secret copied to another app does not open")
            #expect(AppCallbackSettings(platform: platform, secret: .generate()).signingSecret(of: cleared) == nil)

            let (_, rotated) = try await settings.update(appID: app.id, .init(rotateSigningSecret: true))
            let second = try #require(rotated)
            #expect(second != first)
            #expect(settings.signingSecret(of: try #require(try await platform.apps.find(id: app.id))) == second)
            await #expect(throws: AppError.self) { try await settings.update(appID: "404", .init()) }
        }
    }

    @Test("several first setups at once make one signing secret, shown once, and keep every URL named", arguments: TestEngine.enabled)
    func concurrentSetups(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (app, _) = try await platform.apps.create(name: "A", redirectURIs: [], isConfidential: true)
            let settings = AppCallbackSettings(platform: platform, secret: .generate())
            let shown = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<6 {
                    group.addTask {
                        let change =
                            index % 2 == 0
                            ? AppCallbackSettings.Change(deauthorizeURL: "https://app.example.com/deauthorize")
                            : AppCallbackSettings.Change(dataDeletionURL: "https://app.example.com/deletion")
                        return try await settings.update(appID: app.id, change).signingSecret
                    }
                }
                return try await group.reduce(into: [String]()) { if let secret = $1 { $0.append(secret) } }
            }
            #expect(shown.count == 1, "one secret made and shown: \(shown.count)")
            let stored = try #require(try await platform.apps.find(id: app.id))
            #expect(settings.signingSecret(of: stored) == shown.first)
            #expect(stored.deauthorizeCallbackURL == "https://app.example.com/deauthorize")
            #expect(stored.dataDeletionCallbackURL == "https://app.example.com/deletion")
        }
    }
}
