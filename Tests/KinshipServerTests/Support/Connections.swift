import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

extension LiveServer {
    /// Runs `body` with `count` browsers, each on a TCP connection of its own, closed afterwards.
    ///
    /// The `.live` test client is one connection, which makes requests take turns; tests of what
    /// happens when people act at the same time give each person one of these.
    func withBrowsers<Result: Sendable>(_ count: Int, _ body: @Sendable ([Browser]) async throws -> Result) async throws -> Result {
        let port = try #require(client.port)
        let clients = (0..<count).map { _ in TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(60))) }
        for client in clients { client.connect() }
        let browsers = clients.map { client in
            Browser { uri, method, headers, body in
                var headers = headers
                headers[.connection] = "keep-alive"
                let response = try await client.execute(
                    TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
                )
                return (response.head, response.body ?? ByteBuffer())
            }
        }
        do {
            let result = try await body(browsers)
            for client in clients { try? await client.shutdown() }
            return result
        } catch {
            for client in clients { try? await client.shutdown() }
            throw error
        }
    }
}

/// Runs `body` once for each browser, all at the same time; returns the results in browser order.
func concurrently<Result: Sendable>(
    _ browsers: [Browser],
    _ body: @escaping @Sendable (Int, Browser) async throws -> Result
) async throws -> [Result] {
    try await withThrowingTaskGroup(of: (Int, Result).self) { group in
        for (index, browser) in browsers.enumerated() {
            group.addTask { (index, try await body(index, browser)) }
        }
        var results: [(Int, Result)] = []
        for try await result in group { results.append(result) }
        return results.sorted { $0.0 < $1.0 }.map(\.1)
    }
}
