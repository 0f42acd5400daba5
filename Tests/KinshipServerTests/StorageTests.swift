import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import Logging
import NIOCore
import SQLKit
import Testing

@testable import KinshipServer

@Suite("Accounts, apps, friendships and the schema", .timeLimit(.minutes(3)))
struct StorageTests {
    @Test("creating an account derives names, lowercases logins and refuses bad input", arguments: TestEngine.enabled)
    func accounts(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let ada = try await platform.users.create(
                NewUser(name: " Ada King Lovelace ", email: "Ada@Example.com", password: "12345678", username: "Ada")
            )
            #expect(ada.firstName == "Ada")
            #expect(ada.middleName == "King")
            #expect(ada.lastName == "Lovelace")
            #expect(ada.email == "ada@example.com")
            #expect(try await platform.users.find(login: "ADA")?.id == ada.id)
            #expect(try await platform.users.find(login: "ada@example.com")?.id == ada.id)
            #expect(ada.passwordHash.hasPrefix("$2"), "bcrypt")

            await #expect(throws: AccountError.emailTaken("ada@example.com")) {
                try await platform.users.create(NewUser(name: "Other", email: "ada@example.com", password: "12345678"))
            }
            await #expect(throws: AccountError.usernameTaken("ada")) {
                try await platform.users.create(NewUser(name: "Other", email: "o@example.com", password: "12345678", username: "ada"))
            }
            let invalid = [
                NewUser(name: "", email: "x@example.com", password: "12345678"),
                NewUser(name: "X", email: "not-an-email", password: "12345678"),
                NewUser(name: "X", email: "x@example.com", password: "short"),
                NewUser(name: "X", email: "x@example.com", password: "12345678", username: "a b"),
                NewUser(name: "X", email: "x@example.com", password: "12345678", locale: "english"),
                NewUser(name: "X", email: "x@example.com", password: "12345678", birthday: "1815-02-30"),
            ]
            for user in invalid {
                await #expect(throws: AccountError.self) { try await platform.users.create(user) }
            }
            #expect(try await platform.users.list().map(\.id) == [ada.id], "nothing was stored by the refused requests")
        }
    }

    @Test("apps: secrets are stored hashed, redirect URIs validated", arguments: TestEngine.enabled)
    func apps(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let (app, secret) = try await platform.apps.create(
                name: "Demo",
                redirectURIs: ["https://app.example.com/cb", "http://127.0.0.1/callback"],
                isConfidential: true
            )
            let stored = try #require(try await platform.apps.find(id: app.id))
            #expect(stored.redirectURIs == ["http://127.0.0.1/callback", "https://app.example.com/cb"])
            #expect(stored.isConfidential)
            #expect(stored.verifySecret(secret, at: 0))
            #expect(!stored.verifySecret(secret + "x", at: 0))
            let rawSecrets = try await platform.database.read { sql in
                try await sql.raw("SELECT secret_hash FROM apps").all(decodingColumn: "secret_hash", as: String.self)
            }
            #expect(!rawSecrets.contains(secret))

            for bad in ["http://app.example.com/cb", "https://app.example.com/cb#x", "javascript:alert(1)", "/relative", "https://"] {
                await #expect(throws: AppError.self, "\(bad)") {
                    try await platform.apps.create(name: "Bad", redirectURIs: [bad], isConfidential: false)
                }
            }
            #expect(try await platform.apps.list().count == 1)
        }
    }

    @Test("friendship is mutual and adding it twice changes nothing", arguments: TestEngine.enabled)
    func friendships(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let ada = try await platform.users.create(NewUser(name: "Ada Lovelace", email: "ada@example.com", password: "12345678"))
            let grace = try await platform.users.create(NewUser(name: "Grace Hopper", email: "grace@example.com", password: "12345678"))
            try await platform.friends.befriend(ada.id, grace.id)
            try await platform.friends.befriend(grace.id, ada.id)
            #expect(try await platform.friends.friendIDs(of: ada.id) == [grace.id])
            #expect(try await platform.friends.friendIDs(of: grace.id) == [ada.id])
            await #expect(throws: AccountError.unknownUser("404")) { try await platform.friends.befriend(ada.id, "404") }
            await #expect(throws: AccountError.self) { try await platform.friends.befriend(ada.id, ada.id) }
        }
    }

    @Test("migrations apply once; running them again changes nothing", arguments: TestEngine.enabled)
    func migrations(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let migrator = Migrator(database: platform.database, clock: platform.clock, logger: .init(label: "test"))
            #expect(try await migrator.migrate() == [])
            let versions = try await platform.database.read { sql in
                try await sql.raw("SELECT version FROM schema_migrations").all(decodingColumn: "version", as: Int.self)
            }
            #expect(versions == Schema.migrations.map(\.version))
        }
    }

    @Test("the demo data seeds an empty database once", arguments: TestEngine.enabled)
    func demo(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let credentials = try #require(try await DemoData.seedIfEmpty(platform))
            #expect(credentials.users.count == DemoData.people.count)
            #expect(credentials.app.redirectURIs == ["http://127.0.0.1/callback"])
            #expect(try await platform.friends.friendIDs(of: credentials.users[0].id).count == 4)
            #expect(try await DemoData.seedIfEmpty(platform) == nil)
        }
    }
}
