import Foundation
import KinshipCore
import KinshipKit
import Testing

@Suite("Session state machine")
struct SessionTests {
    @Test("a login moves created → opening → open → extended → closed, and observers see each step")
    func lifecycle() async throws {
        let cache = MemoryTokenCache()
        let session = try await Session(appID: "123", cache: cache)
        #expect(await session.state == .created)
        let changes = await session.changes
        try await session.beginOpening()
        try await session.open(with: sampleToken())
        var extended = sampleToken()
        extended.permissions.insert(.email)
        try await session.extend(with: extended)
        try await session.close()
        var seen: [SessionState] = []
        for await change in changes { seen.append(change.to) }
        #expect(seen == [.createdOpening, .open, .openTokenExtended, .closed])
        #expect(await cache.load(forKey: "default") == extended, "close() keeps the cached token")
    }

    @Test("a cached valid token gives createdTokenLoaded, and opening needs no dialog")
    func cachedToken() async throws {
        let cache = MemoryTokenCache()
        await cache.save(sampleToken(), forKey: "default")
        let session = try await Session(appID: "123", cache: cache)
        #expect(await session.state == .createdTokenLoaded)
        try await session.openWithCachedToken()
        #expect(await session.state == .open)

        await cache.save(sampleToken(expiresIn: -10), forKey: "expired")
        #expect(await (try Session(appID: "123", cache: cache, cacheKey: "expired")).state == .created)
        await cache.save(sampleToken(app: "999"), forKey: "other")
        #expect(await (try Session(appID: "123", cache: cache, cacheKey: "other")).state == .created)
    }

    @Test("illegal transitions are errors, and a closed session is not reopened")
    func illegal() async throws {
        let session = try await Session(appID: "123", cache: MemoryTokenCache())
        await #expect(throws: SessionError.illegalTransition(from: .created, to: .open)) { try await session.openWithCachedToken() }
        await #expect(throws: SessionError.illegalTransition(from: .created, to: .openTokenExtended)) {
            try await session.extend(with: sampleToken())
        }
        try await session.beginOpening()
        await #expect(throws: SessionError.tokenForAnotherApp(expected: "123", got: "999")) {
            try await session.open(with: sampleToken(app: "999"))
        }
        try await session.failLogin()
        #expect(await session.state == .closedLoginFailed)
        await #expect(throws: SessionError.illegalTransition(from: .closedLoginFailed, to: .createdOpening)) {
            try await session.beginOpening()
        }
    }

    @Test("closeAndClearTokenInformation forgets the token in the cache too")
    func clear() async throws {
        let cache = MemoryTokenCache()
        let session = try await Session(appID: "123", cache: cache)
        try await session.beginOpening()
        try await session.open(with: sampleToken())
        try await session.closeAndClearTokenInformation()
        #expect(await session.accessToken == nil)
        #expect(await cache.load(forKey: "default") == nil)
        #expect(await session.state == .closed)
    }

    @Test("every state lists only legal successors; closed states are final")
    func table() {
        #expect(SessionState.closed.successors.isEmpty)
        #expect(SessionState.closedLoginFailed.successors.isEmpty)
        #expect(!SessionState.open.successors.contains(.createdOpening))
        #expect(SessionState.allCases.filter(\.isOpen) == [.open, .openTokenExtended])
    }
}
