import AsyncKit
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresKit
import SQLiteKit
import SQLKit

/// Kinship's connection to its storage: a pool of SQLite or PostgreSQL connections behind one
/// SQL interface, so every store runs the same queries on both engines.
public final class Database: Sendable {
    /// The SQL engine behind a ``Database``.
    public enum Engine: String, Sendable {
        case sqlite
        case postgres
    }

    /// AsyncKit's pools lock internally and are used from every event loop; they predate `Sendable`.
    private enum Pool: @unchecked Sendable {
        case sqlite(EventLoopGroupConnectionPool<KinshipSQLiteSource>)
        case postgres(EventLoopGroupConnectionPool<PostgresConnectionSource>)
    }

    public let engine: Engine
    public let location: DatabaseLocation
    private let pool: Pool
    private let logger: Logger

    /// Opens a pool of connections. Nothing is read or written until the first query.
    public init(
        location: DatabaseLocation, logger: Logger, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.location = location
        self.logger = logger
        switch location {
        case .sqlite(let path):
            self.engine = .sqlite
            self.pool = .sqlite(
                EventLoopGroupConnectionPool(
                    source: KinshipSQLiteSource(path: path), maxConnectionsPerEventLoop: 2, logger: logger,
                    on: eventLoopGroup))
        case .postgres(let configuration):
            self.engine = .postgres
            self.pool = .postgres(
                EventLoopGroupConnectionPool(
                    source: PostgresConnectionSource(sqlConfiguration: configuration), maxConnectionsPerEventLoop: 4,
                    logger: logger, on: eventLoopGroup))
        }
    }

    /// Runs `body` with one connection from the pool. Queries are never logged: their binds hold
    /// password and token hashes.
    public func withConnection<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        switch pool {
        case .sqlite(let pool):
            let connection = try await pool.requestConnection(logger: logger).get()
            defer { pool.releaseConnection(connection, logger: logger) }
            return try await body(connection.sql(queryLogLevel: nil))
        case .postgres(let pool):
            let connection = try await pool.requestConnection(logger: logger).get()
            defer { pool.releaseConnection(connection, logger: logger) }
            return try await body(connection.sql(queryLogLevel: nil))
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// On SQLite the transaction takes the write lock at once (`BEGIN IMMEDIATE`), so two writers
    /// queue on the busy timeout instead of failing half-way.
    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        let begin = engine == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN"
        return try await withConnection { sql in
            try await sql.raw(SQLQueryString(begin)).run()
            do {
                let result = try await body(sql)
                try await sql.raw("COMMIT").run()
                return result
            } catch {
                try? await sql.raw("ROLLBACK").run()
                throw error
            }
        }
    }

    /// Closes every connection.
    public func shutdown() async {
        do {
            switch pool {
            case .sqlite(let pool): try await pool.shutdownAsync()
            case .postgres(let pool): try await pool.shutdownAsync()
            }
        } catch {
            logger.warning("Closing the database connections failed", metadata: ["error": "\(error)"])
        }
    }
}

extension SQLRowDecoder {
    /// Column names in snake_case map to Swift properties in camelCase.
    static let snakeCase = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)
}
