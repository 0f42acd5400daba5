import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging
import NIOCore

/// `PUT|GET|DELETE /token_cache/{key}`: the remote token cache. The key (≥ 128 bits, base64url)
/// is the only credential; an unknown, expired or wrong key is one and the same 404.
struct TokenCacheController: Sendable {
    let store: TokenCacheStore
    let rateLimits: RateLimitStore
    /// Requests one address may make a minute: enough for apps, useless for guessing keys.
    let perAddressPerMinute: Int

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.put("/token_cache/:key") { request, context in try await answer(request, context) { try await put($0, $1, $2) } }
        router.get("/token_cache/:key") { request, context in try await answer(request, context) { _, key, _ in try await get(key) } }
        router.delete("/token_cache/:key") { request, context in
            try await answer(request, context) { _, key, _ in
                try await store.delete(key: key)
                return Response(status: .noContent)
            }
        }
    }

    private func answer(
        _ request: Request,
        _ context: KinshipRequestContext,
        _ handle: (Request, String, KinshipRequestContext) async throws -> Response
    ) async throws -> Response {
        // Counted before the key is looked at, so parallel guesses get no more tries than the limit.
        if let retryAfter = try await rateLimits.hit(
            "token-cache:" + context.clientAddress,
            limit: perAddressPerMinute,
            windowSeconds: 60
        ) {
            var response = Self.error(.tooManyRequests, "Too many token cache requests from this address; wait a minute.")
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        guard let key = context.parameters.get("key"), TokenCacheStore.isValidKey(key) else {
            return Self.error(.badRequest, "The key must be 22 to 128 base64url characters (at least 128 random bits).")
        }
        return try await handle(request, key, context)
    }

    private func put(_ request: Request, _ key: String, _ context: KinshipRequestContext) async throws -> Response {
        let now = store.clock.now
        guard let expiresAt = FormReader.query(of: request)["expires_at"].flatMap(Int.init), expiresAt > now else {
            return Self.error(.badRequest, "expires_at must be a future time in Unix seconds (the token's expiry).")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: TokenCacheStore.maximumBytes)
        } catch {
            return Self.error(.contentTooLarge, "An entry holds at most \(TokenCacheStore.maximumBytes) bytes.")
        }
        guard body.readableBytes > 0 else { return Self.error(.badRequest, "The entry is empty.") }
        try await store.put(key: key, entry: Data(body.readableBytesView), expiresAt: min(expiresAt, now + TokenCacheStore.maximumLifetime))
        return Response(status: .noContent)
    }

    private func get(_ key: String) async throws -> Response {
        guard let entry = try await store.get(key: key) else {
            return Self.error(.notFound, "No entry under this key (or it expired).")
        }
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: entry)))
    }

    private static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        JSONResponse.make(["error": message], status: status)
    }
}
