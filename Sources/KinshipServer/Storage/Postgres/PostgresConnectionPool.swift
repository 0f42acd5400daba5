import AsyncKit
import Logging
import NIOConcurrencyHelpers
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
    /// How often a request in progress looks whether its connection has closed under it.
    static let closedCheck = TimeAmount.milliseconds(500)

    /// AsyncKit's pool locks internally and is used from every event loop; it predates `Sendable`.
    private struct Pool: @unchecked Sendable {
        let value: EventLoopGroupConnectionPool<PostgresConnectionSource>
    }

    private let pool: Pool
    private let logger: Logger

    init(configuration: SQLPostgresConfiguration, connectionsPerEventLoop: Int, logger: Logger) {
        var configuration = configuration
        configuration.coreConfiguration.options.connectTimeout = .seconds(3)
        self.pool = Pool(
            value: EventLoopGroupConnectionPool(
                source: PostgresConnectionSource(sqlConfiguration: configuration),
                maxConnectionsPerEventLoop: connectionsPerEventLoop,
                requestTimeout: Self.requestTimeout,
                logger: logger,
                on: MultiThreadedEventLoopGroup.singleton
            )
        )
        self.logger = logger
    }

    /// Runs `body` with one connection, answering as soon as that connection closes.
    ///
    /// A query sent at the moment PostgreSQL shuts down can wait for an answer that never comes,
    /// even after its connection has closed (seen with PostgresNIO 1.33 when the server was stopped
    /// under load: a few requests hung for good). So the work runs in a task of its own, and when
    /// the connection closes first the caller gets ``DatabaseUnavailable`` and the pool gets the
    /// (closed) connection back. Work that is merely slow (waiting for a lock) is left to finish.
    func withConnection<Result: Sendable>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) async throws
        -> Result
    {
        let pool = self.pool
        let logger = self.logger
        let connection = try await pool.value.requestConnection(logger: logger).get()
        let answer = NIOLockedValueBox<CheckedContinuation<Result, any Error>?>(nil)
        // The connection goes back to the pool once: when the work ends, or when the watchdog
        // gives up on it. A closed connection given back is dropped and its slot freed, so hung
        // work never keeps a slot from the requests that come after PostgreSQL is back.
        let given = NIOLockedValueBox(false)
        let giveBack: @Sendable () -> Void = {
            guard
                given.withLockedValue({ given in
                    defer { given = true }
                    return !given
                })
            else { return }
            pool.value.releaseConnection(connection, logger: logger)
        }
        return try await withCheckedThrowingContinuation { continuation in
            answer.withLockedValue { $0 = continuation }
            // Polled rather than a callback on `closeFuture`, whose callbacks would pile up on a
            // connection that lives for days.
            let watchdog = connection.eventLoop.scheduleRepeatedTask(initialDelay: Self.closedCheck, delay: Self.closedCheck) { task in
                guard connection.isClosed else { return }
                task.cancel()
                giveBack()
                guard let abandoned = answer.withLockedValue({ $0.take() }) else { return }
                logger.warning("A PostgreSQL connection closed while a request was using it; the request was answered 503")
                abandoned.resume(throwing: DatabaseUnavailable(retryAfter: 2, reason: "the PostgreSQL connection closed"))
            }
            Task {
                let outcome: Swift.Result<Result, any Error>
                do {
                    outcome = .success(try await body(connection.sql(queryLogLevel: nil)))
                } catch {
                    outcome = .failure(error)
                }
                watchdog.cancel()
                giveBack()
                answer.withLockedValue { $0.take() }?.resume(with: outcome)
            }
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
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
