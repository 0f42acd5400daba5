import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore

/// A provider's authorization and token endpoints as a public app (PKCE, no secret) drives them:
/// Kinship's (`/dialog/oauth`, `/oauth/access_token`) or another OpenID Connect server's.
struct TokenEndpoint: Sendable {
    let client: HTTPClient
    let base: String
    let clientID: String
    let redirectURI: String
    /// The `Cookie` header of the person's browser session, so `prompt=none` answers with a code at once.
    let cookie: String
    var authorizePath = "/dialog/oauth"
    var tokenPath = "/oauth/access_token"
    var scope = "openid profile"
    /// `prompt`, sent when not empty: Kinship answers `none` at once for a person who consented.
    var prompt = "none"
    /// Whether to send `g_continue`, which glewlwyd wants before it answers with a code.
    var continues = false

    struct Code: Sendable {
        let code: String
        let verifier: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `count` fresh codes (with their PKCE verifiers) for ``scope``, fetched by `concurrency` workers.
    func codes(_ count: Int, concurrency: Int) async throws -> [Code] {
        try await inParallel(count, concurrency: concurrency) { index in
            let verifier = "bench-verifier-\(index)-" + UUID().uuidString + UUID().uuidString
            let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            var query = URLComponents()
            query.queryItems = [
                .init(name: "client_id", value: clientID), .init(name: "redirect_uri", value: redirectURI),
                .init(name: "response_type", value: "code"), .init(name: "scope", value: scope),
                .init(name: "state", value: "s\(index)"), .init(name: "nonce", value: UUID().uuidString),
                .init(name: "code_challenge", value: challenge), .init(name: "code_challenge_method", value: "S256"),
            ]
            if !prompt.isEmpty { query.queryItems?.append(.init(name: "prompt", value: prompt)) }
            if continues { query.queryItems?.append(.init(name: "g_continue", value: "")) }
            var request = HTTPClientRequest(url: base + authorizePath + "?" + (query.percentEncodedQuery ?? ""))
            request.headers.add(name: "Cookie", value: cookie)
            let response = try await client.execute(request, timeout: .seconds(60))
            _ = try await response.body.collect(upTo: 1 << 20)
            guard let location = response.headers.first(name: "Location"),
                let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value
            else {
                throw Failure(
                    description:
                        "the authorization endpoint gave no code (HTTP \(response.status.code)); is the person logged in, and have they consented?"
                )
            }
            return Code(code: code, verifier: verifier)
        }
    }

    /// Exchanges every code, `concurrency` at a time; returns exchanges per second and the refresh tokens.
    func exchange(_ codes: [Code], concurrency: Int) async throws -> (Double, [String]) {
        let start = ContinuousClock.now
        let refreshTokens = try await inParallel(codes.count, concurrency: concurrency) { index in
            let answer = try await post([
                "grant_type": "authorization_code", "code": codes[index].code, "redirect_uri": redirectURI, "client_id": clientID,
                "code_verifier": codes[index].verifier,
            ])
            guard answer["id_token"] is String, let refresh = answer["refresh_token"] as? String else {
                throw Failure(description: "a code exchange gave no id_token or refresh token: \(answer)")
            }
            return refresh
        }
        return (Double(codes.count) / Self.seconds(ContinuousClock.now - start), refreshTokens)
    }

    /// Refresh grants per second, and how many: each refresh token used by one worker, one grant
    /// after another (rotated when the server rotates it).
    func refresh(_ tokens: [String], seconds: Int) async throws -> (Double, Int) {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let grants = try await withThrowingTaskGroup(of: Int.self) { group in
            for first in tokens {
                group.addTask {
                    var token = first
                    var count = 0
                    while ContinuousClock.now < deadline {
                        let answer = try await post(["grant_type": "refresh_token", "refresh_token": token, "client_id": clientID])
                        guard answer["access_token"] is String else { throw Failure(description: "a refresh gave no access token: \(answer)") }
                        // Kinship rotates the refresh token at every use; a server that does not keeps the same one.
                        token = answer["refresh_token"] as? String ?? token
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        return (Double(grants) / Self.seconds(ContinuousClock.now - start), grants)
    }

    private func post(_ form: [String: String]) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: base + tokenPath)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        var encoded = URLComponents()
        encoded.queryItems = form.map { URLQueryItem(name: $0.key, value: $0.value) }
        let body = (encoded.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok, let json = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView)) as? [String: Any] else {
            throw Failure(description: "the token endpoint answered HTTP \(response.status.code): \(String(buffer: bytes))")
        }
        return json
    }

    /// Runs `work` for indices 0..<count with at most `concurrency` at once; results in index order.
    private func inParallel<T: Sendable>(_ count: Int, concurrency: Int, _ work: @escaping @Sendable (Int) async throws -> T) async throws -> [T] {
        try await withThrowingTaskGroup(of: (Int, T).self) { group in
            var results = [T?](repeating: nil, count: count)
            var next = 0
            while next < min(concurrency, count) {
                let index = next
                group.addTask { (index, try await work(index)) }
                next += 1
            }
            while let (index, value) = try await group.next() {
                results[index] = value
                if next < count {
                    let index = next
                    group.addTask { (index, try await work(index)) }
                    next += 1
                }
            }
            return results.map { $0! }
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
