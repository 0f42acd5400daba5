import Logging
import SQLKit

/// Kinship's storage: an SQLite file or a PostgreSQL server behind one SQL interface, so every
/// store runs the same queries on both engines.
///
/// Every use says whether it reads or writes. On SQLite that is what lets reads run beside the one
/// writer (see ``SQLiteConnectionPool``); on PostgreSQL a write is a transaction.
public final class Database: Sendable {
    /// The SQL engine behind a ``Database``.
    public enum Engine: String, Sendable {
        case sqlite
        case postgres
    }

    private enum Backend: Sendable {
        case sqlite(SQLiteConnectionPool)
        case postgres(PostgresConnectionPool)
    }

    public let engine: Engine
    public let location: DatabaseLocation
    private let backend: Backend
    /// The statements run so far, when the database was opened to record them.
    let statementLog: StatementLog?

    private init(location: DatabaseLocation, engine: Engine, backend: Backend, statementLog: StatementLog?) {
        self.location = location
        self.engine = engine
        self.backend = backend
        self.statementLog = statementLog
    }

    /// Opens the database: for SQLite the file (created when missing) and its connections, for
    /// PostgreSQL a pool that connects on first use.
    ///
    /// - Parameters:
    ///   - recordingStatements: keep every distinct statement run, for ``recordedQueryPlans()``.
    ///   - threadScheduling: how the kernel schedules the SQLite connections' threads.
    public static func open(
        _ location: DatabaseLocation,
        logger: Logger,
        recordingStatements: Bool = false,
        threadScheduling: ThreadScheduling = .inherited
    ) async throws -> Database {
        let log = recordingStatements ? StatementLog() : nil
        switch location {
        case .sqlite(let path):
            let pool = try await SQLiteConnectionPool.open(path: path, readerCount: 4, scheduling: threadScheduling, logger: logger)
            return Database(location: location, engine: .sqlite, backend: .sqlite(pool), statementLog: log)
        case .postgres(let configuration):
            let pool = PostgresConnectionPool(configuration: configuration, connectionsPerEventLoop: 4, logger: logger)
            return Database(location: location, engine: .postgres, backend: .postgres(pool), statementLog: log)
        }
    }

    /// `body`, given a connection that records its statements when the database keeps them.
    private func recording<Result>(
        _ body: @escaping @Sendable (any SQLDatabase) async throws -> Result
    ) -> @Sendable (any SQLDatabase) async throws -> Result {
        guard let statementLog else { return body }
        return { sql in try await body(RecordingSQLDatabase(base: sql, log: statementLog)) }
    }

    /// Runs `body`, which only reads. Queries are never logged: their binds hold password and
    /// token hashes.
    ///
    /// - Throws: ``DatabaseUnavailable`` when the database cannot be reached or stays busy; any
    ///   error `body` throws.
    public func read<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        do {
            let body = recording(body)
            switch backend {
            case .sqlite(let pool): return try await pool.read(body)
            case .postgres(let pool): return try await pool.withConnection(body)
            }
        } catch {
            throw DatabaseUnavailable(error) ?? error
        }
    }

    /// Runs `body` in a write transaction: committed when it returns, rolled back when it throws.
    ///
    /// - Throws: ``DatabaseUnavailable`` when the database cannot be reached or stays busy; any
    ///   error `body` throws.
    public func write<Result: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        do {
            let body = recording(body)
            switch backend {
            case .sqlite(let pool): return try await pool.write(body)
            case .postgres(let pool): return try await pool.transaction(body)
            }
        } catch {
            throw DatabaseUnavailable(error) ?? error
        }
    }

    /// Runs `body` in a write transaction with the token tables (``TokenTables``): committed when
    /// it returns, rolled back when it throws. On SQLite the statements run straight on SQLite's C
    /// API (``SQLiteTokenTables``); on PostgreSQL through SQLKit, as every other write.
    ///
    /// - Throws: ``DatabaseUnavailable`` when the database cannot be reached or stays busy; any
    ///   error `body` throws.
    func writeTokens<Result: Sendable>(_ body: @escaping @Sendable (any TokenTables) async throws -> Result) async throws -> Result {
        switch backend {
        case .sqlite(let pool):
            do {
                return try await pool.write { connection in try await body(SQLiteTokenTables(connection: connection, log: statementLog)) }
            } catch {
                throw DatabaseUnavailable(error) ?? error
            }
        case .postgres:
            return try await write { sql in try await body(SQLKitTokenTables(sql: sql)) }
        }
    }

    /// How many uses waited for a connection, by pool, since the database was opened: on SQLite
    /// writes waiting for the writer and reads for a reader. PostgreSQL's pool (AsyncKit's) does
    /// not tell; its waits show as latency.
    public func poolWaits() -> [(pool: String, waits: Int)] {
        switch backend {
        case .sqlite(let pool):
            let waits = pool.waits
            return [("writer", waits.writer), ("reader", waits.reader)]
        case .postgres:
            return []
        }
    }

    /// Answers whether the database takes a query now: a `SELECT 1` on a reader (SQLite) or a
    /// pooled connection (PostgreSQL).
    ///
    /// - Throws: ``DatabaseUnavailable`` when it does not.
    public func ping() async throws {
        _ = try await read { sql in try await sql.raw("SELECT 1 AS up").first() }
    }

    /// Closes every connection.
    public func close() async {
        switch backend {
        case .sqlite(let pool): await pool.close()
        case .postgres(let pool): await pool.close()
        }
    }
}
