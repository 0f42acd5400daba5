import AsyncKit
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLKit

/// PostgreSQL connections, a few per event loop, shared by every request of this process.
///
/// While the server cannot be reached, a request that needs a connection fails at once (or after
/// ``requestTimeout`` when every connection is busy) instead of waiting: the caller turns that into
/// ``DatabaseUnavailable``. Connections that broke are dropped and new ones made on demand, so
/// the process recovers by itself when the server is back.
final class PostgresConnectionPool: Sendable {
    /// The longest a request waits for a free connection.
    static let requestTimeout = TimeAmount.seconds(5)

    /// AsyncKit's pool locks internally and is used from every event loop; it predates `Sendable`.
    private struct Pool: @unchecked Sendable {
        let value: EventLoopGroupConnectionPool<PostgresConnectionSource>
    }

    private let pool: Pool
    private let logger: Logger

    init(configuration: SQLPostgresConfiguration, connectionsPerEventLoop: Int, logger: Logger) {
        var configuration = configuration
        configuration.coreConfiguration.options.connectTimeout = .seconds(3)
        self.pool = Pool(value: EventLoopGroupConnectionPool(
            source: PostgresConnectionSource(sqlConfiguration: configuration),
            maxConnectionsPerEventLoop: connectionsPerEventLoop, requestTimeout: Self.requestTimeout, logger: logger,
            on: MultiThreadedEventLoopGroup.singleton))
        self.logger = logger
    }

    /// Runs `body` with one connection.
    func withConnection<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        let pool = self.pool.value
        let connection = try await pool.requestConnection(logger: logger).get()
        defer { pool.releaseConnection(connection, logger: logger) }
        return try await body(connection.sql(queryLogLevel: nil))
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await withConnection { sql in try await sql.transaction(beginning: "BEGIN", body) }
    }

    func close() async {
        do {
            try await pool.value.shutdownAsync()
        } catch {
            logger.warning("Closing the PostgreSQL connections failed", metadata: ["error": "\(error)"])
        }
    }
}
