import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KinshipServer
import Logging
import NIOCore
import PostgresKit

/// A platform on a scratch database, opened for one test and removed after it. Its clock stands
/// still unless the test moves it.
func withPlatform<Result: Sendable>(
    _ engine: TestEngine,
    clock: ManualClock = ManualClock(),
    recordingStatements: Bool = false,
    _ body: @Sendable (Platform) async throws -> Result
) async throws -> Result {
    let scratch = try await engine.makeScratchDatabase()
    let platform: Platform
    do {
        platform = try await Platform.open(
            scratch.location,
            bcryptCost: 4,
            clock: clock,
            recordingStatements: recordingStatements,
            logger: Logger(label: "test")
        )
    } catch {
        await scratch.remove()
        throw error
    }
    do {
        let result = try await body(platform)
        await platform.close()
        await scratch.remove()
        return result
    } catch {
        await platform.close()
        await scratch.remove()
        throw ExplainedPostgresError(error) ?? error
    }
}

/// A PostgreSQL error with what PostgresNIO leaves out of its description (the server's message,
/// the statement), so that a test failing on one says why.
struct ExplainedPostgresError: Error, CustomStringConvertible {
    let description: String

    init?(_ error: any Error) {
        guard let error = error as? PSQLError else { return nil }
        description = String(reflecting: error)
    }
}

/// A live `kinship serve` on a free loopback port, on a scratch database, for one test.
struct LiveServer: Sendable {
    let platform: Platform
    let client: any TestClientProtocol
    /// The platform's clock: move it to expire codes, tokens and limit windows.
    let clock: ManualClock
    /// What the server was started with (its server secret among it).
    let configuration: ServerConfiguration
    /// What the server counted.
    let metrics: ServerMetrics

    /// A new browser with an empty cookie jar.
    func browser() -> Browser { Browser(client: client) }
}

func withLiveServer(
    _ engine: TestEngine,
    builtInApps: [BuiltInApp] = [],
    recordingStatements: Bool = false,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (LiveServer) async throws -> Void
) async throws {
    let clock = ManualClock()
    try await withPlatform(engine, clock: clock, recordingStatements: recordingStatements) { platform in
        var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, bcryptCost: 4)
        // The test client keeps one connection and does not reconnect; a test that prepares data
        // for longer than the idle timeout would find it closed.
        configuration.idleTimeout = 300
        configure(&configuration)
        var logger = Logger(label: "test.server")
        logger.logLevel = .warning
        let metrics = ServerMetrics()
        let app = try await KinshipApplication.make(
            platform: platform,
            configuration: configuration,
            builtInApps: builtInApps,
            metrics: metrics,
            logger: logger
        )
        try await app.test(.live) { [configuration] client in
            try await body(LiveServer(platform: platform, client: client, clock: clock, configuration: configuration, metrics: metrics))
        }
    }
}

/// Runs a second `kinship serve` process on `server`'s database (its own platform, the same
/// clock and server secret) for the length of `body`.
func withSecondProcess(
    of server: LiveServer,
    configure: @Sendable (inout ServerConfiguration) -> Void,
    _ body: @Sendable (LiveServer) async throws -> Void
) async throws {
    let second = try await Platform.open(server.platform.database.location, bcryptCost: 4, clock: server.clock, logger: .init(label: "second"))
    var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, database: server.platform.database.location, bcryptCost: 4)
    configuration.secret = server.configuration.secret
    configuration.idleTimeout = 300
    configure(&configuration)
    var logger = Logger(label: "second")
    logger.logLevel = .warning
    let metrics = ServerMetrics()
    let app = try await KinshipApplication.make(platform: second, configuration: configuration, metrics: metrics, logger: logger)
    do {
        try await app.test(.live) { [configuration] client in
            try await body(LiveServer(platform: second, client: client, clock: server.clock, configuration: configuration, metrics: metrics))
        }
    } catch {
        await second.close()
        throw error
    }
    await second.close()
}
