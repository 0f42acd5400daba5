import Foundation
import KinshipCore
import SQLKit
import Testing

@testable import KinshipServer

/// Finding people by the words of their names (`person_search_terms`): folded words, endings of
/// words written without spaces, every typed word a prefix, and a cost that does not grow with the
/// platform.
@Suite("People search", .timeLimit(.minutes(3)))
struct PeopleSearchTests {
    @Test("a name's terms: folded words, and every ending of a word written without spaces")
    func terms() {
        #expect(PersonSearchTerms.terms(ofName: "Émile Zola") == ["emile", "zola"])
        #expect(PersonSearchTerms.terms(ofName: "  Ada   King-Lovelace ") == ["ada", "king", "lovelace"])
        #expect(PersonSearchTerms.terms(ofName: "张伟") == ["张伟", "伟"])
        #expect(PersonSearchTerms.terms(ofName: "Ｔｏｍ Baker") == ["tom", "baker"], "full-width letters fold to their plain form")
        #expect(PersonSearchTerms.terms(ofName: "%_!") == [])
        #expect(PersonSearchTerms.words(ofQuery: "ADA  lov") == ["ada", "lov"])
    }

    @Test("each typed word begins a word of the name; accents and case do not matter", arguments: TestEngine.enabled)
    func search(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            for (name, email) in [("Ada Lovelace", "ada@example.com"), ("Émile Zola", "emile@example.com"), ("张伟", "wei@example.com")] {
                _ = try await platform.users.create(NewUser(name: name, email: email, password: "12345678"))
            }
            func names(_ text: String) async throws -> [String] { try await platform.users.search(name: text, limit: 20).map(\.name) }
            #expect(try await names("ada lov") == ["Ada Lovelace"])
            #expect(try await names("LOVE") == ["Ada Lovelace"])
            #expect(try await names("ada zola") == [], "every word must match")
            #expect(try await names("emile") == ["Émile Zola"])
            #expect(try await names("伟") == ["张伟"])
            #expect(try await names("ovelace") == [], "words are found by their beginnings")
            #expect(try await names("%") == [])
            let ada = try #require(try await platform.users.find(login: "ada@example.com"))
            _ = try await platform.users.update(ada.id, with: ProfileChanges(name: "Augusta King"))
            #expect(try await names("ada") == [], "a new name's terms replace the old ones")
            #expect(try await names("aug") == ["Augusta King"])
        }
    }

    @Test("eight renames of one person at once leave the terms of the name that stands, and no other", arguments: TestEngine.enabled)
    func concurrentRenames(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let ada = try await platform.users.create(NewUser(name: "Ada Lovelace", email: "ada@example.com", password: "12345678"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask { _ = try await platform.users.update(ada.id, with: ProfileChanges(name: "Name\(index) Other\(index)")) }
                }
                try await group.waitForAll()
            }
            let standing = try #require(try await platform.users.find(id: ada.id)).name
            let stored = try await platform.database.read { sql in
                try await sql.raw("SELECT term FROM person_search_terms WHERE user_id = \(bind: ada.id) ORDER BY term")
                    .all(decodingColumn: "term", as: String.self)
            }
            #expect(stored == PersonSearchTerms.terms(ofName: standing).sorted())
        }
    }

    @Test("a word half the platform shares reads a bounded number of people and still finds the named one", arguments: TestEngine.enabled)
    func commonWord(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            try await platform.database.write { sql in
                for index in 0..<500 {
                    let id = String(900_000_000_000_000 + index)
                    try await sql.raw(
                        """
                        INSERT INTO users (id, name, email, password_hash, password_changed_at, created_at)
                        VALUES (\(bind: id), \(bind: "Maria \(index)"), \(bind: "m\(index)@example.com"), '', 0, 0)
                        """
                    ).run()
                    try await PersonSearchTerms.insert([(id, "Maria \(index)")], in: sql)
                }
            }
            let found = try await platform.users.search(name: "maria", limit: 20)
            #expect(found.count == 20)
            #expect(try await platform.users.search(name: "maria 42", limit: 20).map(\.name).contains("Maria 42"))
        }
    }

    @Test("people who were there before the search terms existed are found once the schema is brought up to date", arguments: TestEngine.enabled)
    func backfill(engine: TestEngine) async throws {
        let scratch = try await engine.makeScratchDatabase()
        let database = try await Database.open(scratch.location, logger: .init(label: "test"))
        do {
            let migrator = Migrator(database: database, clock: ManualClock(), logger: .init(label: "test"))
            try await migrator.migrate(Schema.migrations.filter { $0.version < 14 })
            try await database.write { sql in
                try await sql.raw(
                    "INSERT INTO users (id, name, email, password_hash, password_changed_at, created_at) VALUES ('1', 'Grace Hopper', 'g@example.com', '', 0, 0)"
                ).run()
            }
            #expect(try await migrator.migrate().contains(14))
            let terms = try await database.read { sql in
                try await sql.raw("SELECT term FROM person_search_terms WHERE user_id = '1' ORDER BY term").all(
                    decodingColumn: "term",
                    as: String.self
                )
            }
            #expect(terms == ["grace", "hopper"])
        } catch {
            await database.close()
            await scratch.remove()
            throw error
        }
        await database.close()
        await scratch.remove()
    }
}
