import Atomics
import KinshipSQLite
import Logging
import NIOConcurrencyHelpers
import SQLKit

/// An SQLite file opened the way GRDB's `DatabasePool` opens one: one writer connection and a few
/// reader connections, in write-ahead-log mode.
///
/// - Each connection lives on an ``SQLiteThread`` of its own. A read or write takes a turn at a
///   connection, then runs its whole body on that connection's thread: entering and leaving are the
///   only thread hops, and the statements in between are plain calls into SQLite.
/// - Writes take turns at the one writer in Swift concurrency (``AsyncSemaphore``), so a waiting
///   writer costs no thread: it never sits in SQLite's busy handler while the writer that holds
///   the lock needs a thread to finish.
/// - Readers never wait for the writer: in WAL mode a reader sees the last committed state, and a
///   read's statements all see the same one (each read is a transaction). Readers are opened
///   `query_only`, so a write sent down the read path fails loudly instead of racing.
///
/// SQLite's busy timeout is still set, for the one case it serves: another process (an admin
/// command) holding the write lock for a moment.
final class SQLiteConnectionPool: Sendable {
    /// A connection and the thread it runs on.
    private struct Connection: Sendable {
        let handle: SQLiteHandle
        let thread: SQLiteThread

        /// Opens the file on a new thread named `name`, runs `pragmas`, and keeps the thread.
        static func open(path: String, name: String, pragmas: [String], scheduling: ThreadScheduling) async throws -> Connection {
            let thread = SQLiteThread(name: name) { scheduling.applyToCurrentThread() }
            do {
                let handle = try await thread.run {
                    try SQLiteHandle(path: path, busyTimeoutMilliseconds: Int32(busyTimeoutMilliseconds), pragmas: pragmas)
                }
                return Connection(handle: handle, thread: thread)
            } catch {
                thread.stop()
                throw error
            }
        }

        /// Runs `body` on this connection's thread between `begin` and `COMMIT` (`ROLLBACK` when it throws).
        func transaction<Result>(
            beginning begin: String,
            logger: Logger,
            _ body: (SQLiteTurnDatabase) async throws -> Result
        ) async throws -> Result {
            try await thread.run {
                let turn = SQLiteTurnDatabase.Turn()
                defer { turn.end() }
                let sql = SQLiteTurnDatabase(handle: handle, thread: thread, turn: turn, logger: logger)
                try sql.run(begin, [])
                do {
                    let result = try await body(sql)
                    try sql.run("COMMIT", [])
                    return result
                } catch {
                    // After a failed COMMIT the transaction may be gone already; the ROLLBACK then fails harmlessly.
                    try? sql.run("ROLLBACK", [])
                    throw error
                }
            }
        }

        /// Closes the connection on its thread, then lets the thread end.
        func close() async {
            _ = try? await thread.run { handle.close() }
            thread.stop()
        }
    }

    private let writer: Connection
    private let writerTurn = AsyncSemaphore(turns: 1)
    private let readers: [Connection]
    private let idleReaders: NIOLockedValueBox<[Connection]>
    private let readerTurns: AsyncSemaphore
    private let isClosed = ManagedAtomic(false)
    /// Writes asked for and not yet finished, and how many of them found another one under way.
    private let writesUnderWay = ManagedAtomic(0)
    private let writerWaits = ManagedAtomic(0)
    private let logger: Logger

    /// Milliseconds a connection waits for another process's lock before it reports the database busy.
    static let busyTimeoutMilliseconds = 5_000

    private init(writer: Connection, readers: [Connection], logger: Logger) {
        self.writer = writer
        self.readers = readers
        self.idleReaders = NIOLockedValueBox(readers)
        self.readerTurns = AsyncSemaphore(turns: readers.count)
        self.logger = logger
    }

    /// Opens the file (created readable by its owner only when it does not exist yet), switches it
    /// to write-ahead logging, and opens the writer and `readerCount` readers.
    static func open(path: String, readerCount: Int, scheduling: ThreadScheduling, logger: Logger) async throws -> SQLiteConnectionPool {
        try SQLiteFile.createPrivately(at: path)
        var opened: [Connection] = []
        do {
            let writer = try await Connection.open(
                path: path,
                name: "sqlite-writer",
                pragmas: ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"],
                scheduling: scheduling
            )
            opened.append(writer)
            for number in 1...readerCount {
                let reader = try await Connection.open(
                    path: path,
                    name: "sqlite-reader-\(number)",
                    pragmas: ["PRAGMA foreign_keys = ON", "PRAGMA query_only = ON"],
                    scheduling: scheduling
                )
                opened.append(reader)
            }
            return SQLiteConnectionPool(writer: writer, readers: Array(opened.dropFirst()), logger: logger)
        } catch {
            for connection in opened { await connection.close() }
            throw error
        }
    }

    /// Runs `body` in a read transaction on an idle reader connection, waiting for one in turn
    /// when all are busy.
    ///
    /// - Throws: ``SQLiteFailure`` when SQLite fails or the pool is closed; any error `body` throws.
    func read<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await readerTurns.withTurn {
            guard !isClosed.load(ordering: .acquiring) else { throw SQLiteFailure.closed }
            let reader = idleReaders.withLockedValue { $0.removeLast() }
            defer { idleReaders.withLockedValue { $0.append(reader) } }
            return try await reader.transaction(beginning: "BEGIN", logger: logger) { try await body($0) }
        }
    }

    /// Runs `body` in a transaction on the writer, after the writes queued before it: committed
    /// when it returns, rolled back when it throws.
    ///
    /// - Throws: ``SQLiteFailure`` when SQLite fails (``SQLiteFailure/isLocked`` when another
    ///   process kept the file locked) or the pool is closed; any error `body` throws.
    func write<Result>(_ body: (SQLiteTurnDatabase) async throws -> Result) async throws -> Result {
        // The turn is waited for on the writer's thread: the write that ends hands the turn to the
        // next one there, and the thread runs it at once instead of sleeping until the waiting
        // task has come back to it from one of Swift's threads.
        guard !isClosed.load(ordering: .acquiring) else { throw SQLiteFailure.closed }
        // A write that finds another under way waits, whether for the turn or for the thread.
        if writesUnderWay.loadThenWrappingIncrement(ordering: .acquiringAndReleasing) > 0 {
            writerWaits.wrappingIncrement(ordering: .relaxed)
        }
        defer { writesUnderWay.wrappingDecrement(ordering: .acquiringAndReleasing) }
        return try await writer.thread.run {
            try await writerTurn.withTurn {
                guard !isClosed.load(ordering: .acquiring) else { throw SQLiteFailure.closed }
                // IMMEDIATE takes the write lock at once, so another process's writer cannot slip in half-way.
                return try await writer.transaction(beginning: "BEGIN IMMEDIATE", logger: logger, body)
            }
        }
    }

    /// How many writes waited for the writer, and reads for a reader, since the file was opened.
    var waits: (writer: Int, reader: Int) { (writerWaits.load(ordering: .relaxed), readerTurns.waits) }

    /// Waits for the reads and the write under way, closes every connection and ends their
    /// threads; reads and writes asked for afterwards throw ``SQLiteFailure/closed``.
    func close() async {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        try? await writerTurn.wait()
        for _ in readers { try? await readerTurns.wait() }
        await writer.close()
        for reader in readers { await reader.close() }
        writerTurn.signal()
        for _ in readers { readerTurns.signal() }
    }
}
