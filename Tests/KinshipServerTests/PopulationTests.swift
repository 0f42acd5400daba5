import Foundation
import Testing

@testable import KinshipServer

/// `kinship populate`'s generated platform: what it holds, that a seed makes it again, and that it
/// never mixes with real people.
@Suite("Generated platforms", .timeLimit(.minutes(3)))
struct PopulationTests {
    @Test(
        "people, a skewed friend graph, apps, logins with tokens, and requests; the same seed makes the same platform",
        arguments: TestEngine.enabled
    )
    func generated(engine: TestEngine) async throws {
        var generated = Population(people: 1_000)
        generated.averageFriends = 20
        generated.mostFriends = 200
        generated.password = testPassword
        let population = generated
        let first = try await withPlatform(engine) { platform in
            let report = try await platform.populate(population)
            let typical = try #require(report.probes.first { $0.role == "typical" })
            let person = try #require(try await platform.users.find(login: typical.email))
            #expect(try await platform.users.verifyPassword(testPassword, of: person), "generated people log in with the password")
            #expect(try await platform.friends.friendIDs(of: typical.id).count == typical.friends)
            #expect(try await platform.apps.find(id: "200000000000000")?.name == "App 1")
            let tokens = try await platform.database.read { sql in
                try await sql.raw("SELECT COUNT(*) AS tokens FROM access_tokens").first(decodingColumn: "tokens", as: Int.self)
            }
            #expect(tokens == report.logins, "each login holds a token")
            let stored = try #require(
                try await platform.database.read { sql in
                    try await sql.raw("SELECT token_hash FROM access_tokens LIMIT 1").first(decodingColumn: "token_hash", as: String.self)
                }
            )
            for guess in [stored, String(stored.prefix { $0 != "z" }), String(stored.dropLast(stored.count - 32))] {
                #expect(try await platform.tokens.find(token: guess) == nil, "no token anyone can present opens a generated login")
            }
            return report
        }
        let again = try await withPlatform(engine) { platform in try await platform.populate(population) }
        #expect(first.people == 1_000 && first.apps == 20)
        #expect(first.friendships > 5_000 && first.friendships < 12_000, "about 20 friends each: \(first.friendships)")
        #expect(first.probes.first { $0.role == "busiest" }?.friends ?? 0 > 60, "a few people have many more friends than most")
        #expect(first.logins > 1_000)
        #expect((first.friendships, first.logins, first.friendRequests) == (again.friendships, again.logins, again.friendRequests))
        #expect(first.probes.map(\.id) == again.probes.map(\.id))
    }

    @Test("a database with people in it is refused, and left as it was", arguments: TestEngine.enabled)
    func refusesPeople(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            _ = try await platform.users.create(NewUser(name: "Ada Lovelace", email: "ada@example.com", password: testPassword))
            await #expect(throws: PopulationError.self) { try await platform.populate(Population(people: 10)) }
            #expect(try await platform.users.list().count == 1)
        }
    }

    @Test("two runs started at once: one fills the database, the other is refused as a non-empty one", arguments: TestEngine.enabled)
    func concurrentRuns(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            var small = Population(people: 300)
            small.averageFriends = 5
            small.mostFriends = 20
            let population = small
            let outcomes = await withTaskGroup(of: Result<PopulationReport, any Error>.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        do { return .success(try await platform.populate(population)) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let filled = outcomes.compactMap { try? $0.get() }
            let refusals = outcomes.compactMap { outcome -> PopulationError? in
                guard case .failure(let error) = outcome else { return nil }
                return error as? PopulationError
            }
            #expect(filled.count == 1, "exactly one run fills the database: \(outcomes)")
            #expect(refusals.count == 1, "the other says the database is not empty: \(outcomes)")
            let people = try await platform.users.list().count
            #expect(people == 300, "no one was written twice or half-way")
        }
    }
}
