import Foundation
import Testing

@testable import KinshipServer

@Suite("Grant generation")
struct GrantGenerationTests {
    @Test("two mappings of one database's counter see each other's bumps, before and after a write")
    func shared() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("grants-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path + "-grants") }
        let first = try #require(GrantGeneration(databasePath: path))
        let second = try #require(GrantGeneration(databasePath: path))
        let start = second.current
        let seenDuringWrite = await first.changing { second.current }
        #expect(seenDuringWrite == start + 1)
        #expect(second.current == start + 2)
    }

    @Test("a remembered check is dropped as soon as the counter moves")
    func cacheFollowsCounter() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("grants-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path + "-grants") }
        let generation = try #require(GrantGeneration(databasePath: path))
        let cache = GenerationCache<TokenInspector.Grant>(generation: generation)
        let grant = TokenInspector.Grant(
            token: AccessTokenRecord(
                tokenHash: "h",
                authorizationId: "a",
                appId: "p",
                userId: "u",
                lifetime: "short",
                codeHash: nil,
                issuedAt: 0,
                expiresAt: .max,
                revokedAt: nil,
                refreshFamilyId: nil
            ),
            authorization: Authorization(id: "a", userID: "u", appID: "p", createdAt: 0, revokedAt: nil, permissions: [:]),
            user: UserRecord(id: "u", name: "U", email: "u@example.com", passwordHash: "", passwordChangedAt: 0, createdAt: 0, findableByEmail: 0)
        )
        cache.store(grant, for: "h", readAt: generation.current)
        #expect(cache.value(for: "h") != nil)
        await generation.changing {}
        #expect(cache.value(for: "h") == nil)
        let before = generation.current
        await generation.changing {}
        cache.store(grant, for: "h", readAt: before)
        #expect(cache.value(for: "h") == nil, "a check read before a change is never used after it")
    }
}
