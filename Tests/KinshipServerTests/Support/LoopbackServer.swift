import Hummingbird
import Logging

/// Runs a Hummingbird application with `router` on 127.0.0.1 (on `port`, or a free one) for the
/// length of `body`, which gets the port it listens on; then stops it. For small servers a test
/// plays (an app's callback endpoint, an HTTP peer).
func withLoopbackServer<Result: Sendable>(
    _ router: Router<BasicRequestContext>,
    port: Int = 0,
    label: String,
    _ body: @Sendable (Int) async throws -> Result
) async throws -> Result {
    var logger = Logger(label: label)
    logger.logLevel = .critical
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: port)),
        onServerRunning: { continuation.yield($0.localAddress?.port ?? 0) },
        logger: logger
    )
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            // A server that cannot listen (the port was taken) ends the wait for its port.
            defer { continuation.finish() }
            try await app.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let listeningPort = await iterator.next() else {
            try await group.next()
            throw LoopbackServerError.didNotListen(port: port)
        }
        defer { group.cancelAll() }
        return try await body(listeningPort)
    }
}

/// Why a loopback server did not start.
enum LoopbackServerError: Error {
    case didNotListen(port: Int)
}
