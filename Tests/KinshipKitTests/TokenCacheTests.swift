import Foundation
import KinshipCore
import KinshipKit
import Testing

func sampleToken(app: String = "123", expiresIn: TimeInterval = 3600) -> AccessToken {
    AccessToken(
        tokenString: "kat_abc",
        appID: app,
        userID: "42",
        permissions: [.publicProfile, .userFriends],
        declinedPermissions: [.email],
        expirationDate: Date(timeIntervalSinceNow: expiresIn).rounded,
        refreshDate: Date().rounded
    )
}

extension Date {
    /// Whole seconds, as the cache's ISO 8601 dates keep them.
    var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

@Suite("Access tokens and token caches")
struct TokenCacheTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-cache-\(UUID().uuidString)")

    @Test func tokenKnowsItsPermissionsAndExpiry() throws {
        let token = sampleToken()
        #expect(token.hasGranted(.userFriends))
        #expect(!token.hasGranted(.email))
        #expect(!token.isExpired)
        #expect(token.isExpired(at: token.expirationDate))
        let decoded = try JSONDecoder().decode(AccessToken.self, from: JSONEncoder().encode(token))
        #expect(decoded == token)
    }

    @Test("file cache: round trip per key, mode 0600, clear")
    func fileRoundTrip() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = FileTokenCache(folder: folder)
        let ada = sampleToken()
        var grace = sampleToken()
        grace.userID = "43"
        try await cache.save(ada, forKey: "ada")
        try await cache.save(grace, forKey: "grace")
        #expect(try await cache.load(forKey: "ada") == ada)
        #expect(try await cache.load(forKey: "grace") == grace)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("ada.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        try await cache.clear(forKey: "ada")
        #expect(try await cache.load(forKey: "ada") == nil)
        #expect(try await FileTokenCache(folder: folder).load(forKey: "grace") == grace, "a new cache instance reads the same file")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test("the refresh token is kept in the 0600 file; a file written before refresh tokens still loads")
    func refreshTokenOnDisk() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = FileTokenCache(folder: folder)
        var ada = sampleToken(expiresIn: -60)
        ada.refreshToken = "krt_secret"
        ada.refreshTokenExpirationDate = Date(timeIntervalSinceNow: 90 * 86_400).rounded
        try await cache.save(ada, forKey: "ada")
        #expect(try await cache.load(forKey: "ada") == ada)
        #expect(ada.isUsable(at: Date()) && !ada.isUsable(at: ada.refreshTokenExpirationDate!))
        #expect(ada.keepUntil == ada.refreshTokenExpirationDate)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("ada.json").path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)

        let older =
            #"{"tokenString":"kat_old","appID":"123","userID":"42","permissions":["public_profile"],"#
            + #""declinedPermissions":[],"expiredPermissions":[],"expirationDate":"2100-01-01T00:00:00Z","refreshDate":"2026-01-01T00:00:00Z"}"#
        try Data(older.utf8).write(to: folder.appendingPathComponent("old.json"))
        let loaded = try #require(try await cache.load(forKey: "old"))
        #expect(loaded.tokenString == "kat_old" && loaded.refreshToken == nil && loaded.keepUntil == loaded.expirationDate)
    }

    @Test("a corrupt file is reported, kept aside and treated as empty")
    func corrupt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let problems = ProblemLog()
        let cache = FileTokenCache(folder: folder) { problems.record($0) }
        try await cache.save(sampleToken(), forKey: "ada")
        try Data("{\"tokenString\": 12".utf8).write(to: folder.appendingPathComponent("ada.json"))
        #expect(try await cache.load(forKey: "ada") == nil)
        #expect(problems.count == 1)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ada.json.corrupt").path))
        try await cache.save(sampleToken(), forKey: "ada")
        #expect(try await cache.load(forKey: "ada") != nil)
    }

    @Test("keys that could escape the folder are refused", arguments: ["", "../x", "a/b", ".hidden", "ü"])
    func badKeys(key: String) async throws {
        let cache = FileTokenCache(folder: folder)
        await #expect(throws: TokenCacheError.invalidKey(key)) { try await cache.save(sampleToken(), forKey: key) }
    }

    @Test func defaultFolderFollowsXDG() {
        #expect(FileTokenCache.defaultFolder(environment: ["XDG_CONFIG_HOME": "/tmp/xdg"]).path == "/tmp/xdg/kinship/tokens")
    }
}

final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var problems: [TokenCacheError] = []
    func record(_ problem: TokenCacheError) { lock.withLock { problems.append(problem) } }
    var count: Int { lock.withLock { problems.count } }
}
