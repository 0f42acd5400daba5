import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SQLKit
import Testing

@testable import KinshipServer

@Suite("Remote token cache service", .timeLimit(.minutes(3)))
struct TokenCacheServiceTests {
    let key = "Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg"
    let entry = #"{"tokenString":"kat_secret_token_value","appID":"123"}"#

    private func put(_ server: LiveServer, key: String, body: String, expiresAt: Int) async throws -> HTTPResponse.Status {
        try await server.client.executeRequest(
            uri: "/token_cache/\(key)?expires_at=\(expiresAt)",
            method: .put,
            headers: [.contentType: "application/json"],
            body: ByteBuffer(string: body)
        ).status
    }

    private func get(_ server: LiveServer, key: String) async throws -> (HTTPResponse.Status, String) {
        let response = try await server.client.executeRequest(uri: "/token_cache/\(key)", method: .get, headers: [:], body: nil)
        return (response.status, String(buffer: response.body))
    }

    @Test("a second device with the key reads the entry; entries are sealed at rest", arguments: TestEngine.enabled)
    func roundTrip(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            #expect(try await put(server, key: key, body: entry, expiresAt: server.clock.now + 3600) == .noContent)
            let (status, body) = try await get(server, key: key)
            #expect(status == .ok)
            #expect(body == entry)
            let stored = try await server.platform.database.read { sql in
                try await sql.raw("SELECT key_hash, ciphertext FROM token_cache_entries").all()
            }
            #expect(stored.count == 1)
            let ciphertext = try stored[0].decode(column: "ciphertext", as: Data.self)
            #expect(!String(decoding: ciphertext, as: UTF8.self).contains("kat_secret_token_value"))
            #expect(try stored[0].decode(column: "key_hash", as: String.self) != key)

            #expect(try await get(server, key: String(key.dropLast()) + "A").0 == .notFound, "a wrong key reads nothing")
            let delete = try await server.client.executeRequest(uri: "/token_cache/\(key)", method: .delete, headers: [:], body: nil)
            #expect(delete.status == .noContent)
            #expect(try await get(server, key: key).0 == .notFound)
        }
    }

    @Test("entries expire with the token; bad keys, times and sizes are refused", arguments: TestEngine.enabled)
    func refusals(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let stored = try await put(server, key: key, body: entry, expiresAt: server.clock.now + 3)
            #expect(stored == .noContent)
            server.clock.advance(by: 3)
            #expect(try await get(server, key: key).0 == .notFound)
            #expect(try await put(server, key: "short", body: entry, expiresAt: server.clock.now + 60) == .badRequest)
            #expect(try await put(server, key: key, body: entry, expiresAt: server.clock.now - 60) == .badRequest)
            #expect(try await put(server, key: key, body: String(repeating: "x", count: 9000), expiresAt: server.clock.now + 60) == .contentTooLarge)
            #expect(try await put(server, key: key, body: "", expiresAt: server.clock.now + 60) == .badRequest)
        }
    }
}

@Suite("Remote token cache service: rate limit", .timeLimit(.minutes(3)))
struct TokenCacheRateLimitTests {
    @Test("one address gets 429 after its requests for the minute", arguments: TestEngine.enabled)
    func limited(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.tokenCacheRequestsPerMinute = 3 }) { server in
            var statuses: [HTTPResponse.Status] = []
            for _ in 0..<10 {
                statuses.append(
                    try await server.client.executeRequest(
                        uri: "/token_cache/Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZg",
                        method: .get,
                        headers: [:],
                        body: nil
                    ).status
                )
            }
            #expect(statuses.filter { $0 == .tooManyRequests }.count >= 4, "even if the minute turns during the test")
            #expect(statuses.first == .notFound)
        }
    }
}
