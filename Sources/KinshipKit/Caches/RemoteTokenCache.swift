import Crypto
import Foundation
import KinshipCore

/// Tokens kept on the platform's token-cache service (`/token_cache/{key}`), so a second device
/// given the same ``Secret`` starts logged in.
///
/// The secret never leaves the device in a form the server could reverse: each entry's key is
/// HMAC-SHA256(secret, cache key), and the server seals entries under a key derived from that.
/// Entries expire with their token, or with its refresh token when it has one.
public struct RemoteTokenCache: TokenCache {
    /// The ≥ 128-bit secret that both names and unlocks the entries; share it to share the login.
    public struct Secret: Sendable, Equatable, CustomStringConvertible {
        /// The secret as base64url text (43 characters for 256 bits).
        public let text: String

        /// A new random 256-bit secret.
        public static func random() -> Secret { Secret(validated: Base64URL.random(byteCount: 32)) }

        /// A secret from its text; `nil` unless it is 22–128 base64url characters (≥ 128 bits).
        public init?(_ text: String) {
            guard Base64URL.isWellFormed(text, length: 22...128) else { return nil }
            self.text = text
        }

        private init(validated text: String) { self.text = text }

        /// Hidden, so a secret printed in a log does not leak.
        public var description: String { "RemoteTokenCache.Secret(…)" }
    }

    private let serverURL: URL
    private let secret: Secret
    private let transport: any HTTPTransport
    private let timeout: TimeInterval

    /// A cache kept by the token-cache service at `serverURL`, sealed with `secret`.
    ///
    /// - Parameters:
    ///   - serverURL: The platform's address.
    ///   - secret: The secret that names and seals the entries; share it to share the login.
    ///   - transport: How requests reach the platform.
    ///   - timeout: Seconds each request may take.
    public init(serverURL: URL, secret: Secret, transport: any HTTPTransport = SystemTransport(), timeout: TimeInterval = 30) {
        self.serverURL = serverURL
        self.secret = secret
        self.transport = transport
        self.timeout = timeout
    }

    /// Seals the token and stores it under `key` on the service.
    ///
    /// - Throws: ``RemoteTokenCacheError`` when the service refuses, ``TransportError`` when it cannot be
    ///   reached.
    public func save(_ token: AccessToken, forKey key: String) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var url = URLComponents(url: entryURL(key), resolvingAgainstBaseURL: false)!
        let keepUntil = min(token.keepUntil, Date(timeIntervalSince1970: TimeInterval(Int32.max)))
        url.queryItems = [URLQueryItem(name: "expires_at", value: String(Int(keepUntil.timeIntervalSince1970)))]
        let response = try await send("PUT", url.url!, body: try encoder.encode(token))
        guard response.status == 204 else { throw RemoteTokenCacheError(response) }
    }

    /// The token stored under `key`; `nil` when there is none or it cannot be opened with this secret.
    ///
    /// - Throws: ``RemoteTokenCacheError`` when the service refuses, ``TransportError`` when it cannot be
    ///   reached.
    public func load(forKey key: String) async throws -> AccessToken? {
        let response = try await send("GET", entryURL(key))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw RemoteTokenCacheError(response) }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(AccessToken.self, from: response.body)
    }

    /// Deletes the token stored under `key`.
    ///
    /// - Throws: ``RemoteTokenCacheError`` when the service refuses, ``TransportError`` when it cannot be
    ///   reached.
    public func clear(forKey key: String) async throws {
        let response = try await send("DELETE", entryURL(key))
        guard response.status == 204 else { throw RemoteTokenCacheError(response) }
    }

    /// `/token_cache/{HMAC(secret, key)}`: one entry per cache key, unguessable without the secret.
    private func entryURL(_ key: String) -> URL {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(key.utf8), using: SymmetricKey(data: Data(secret.text.utf8)))
        return serverURL.appendingServerPath("token_cache/\(Base64URL.encode(mac))")
    }

    private func send(_ method: String, _ url: URL, body: Data? = nil) async throws(TransportError) -> TransportResponse {
        try await transport.send(
            TransportRequest(
                method: method,
                url: url,
                headers: body == nil ? [:] : ["Content-Type": "application/json"],
                body: body,
                timeout: timeout
            )
        )
    }
}

/// The token-cache service refused a request.
public struct RemoteTokenCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status the service answered with.
    public let status: Int
    /// The service's error message, or the start of its answer.
    public let message: String

    init(_ response: TransportResponse) {
        struct Body: Decodable { let error: String }
        status = response.status
        message = (try? JSONDecoder().decode(Body.self, from: response.body))?.error ?? response.body.excerpt
    }

    /// A sentence for the developer.
    public var description: String { "The token cache service answered HTTP \(status): \(message)" }
}
