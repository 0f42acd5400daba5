import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// An SQLite file opened the way GRDB's `DatabasePool` opens one: one writer connection and a few
/// reader connections, in write-ahead-log mode.
///
/// - Writes take turns at the one writer in Swift concurrency (``AsyncSemaphore``), so a waiting
///   writer costs no thread: it never sits in SQLite's busy handler while the writer that holds
///   the lock needs a thread to finish.
/// - The writer and the readers run their SQLite calls on thread pools of their own, apart from
///   the pool that hashes passwords, so neither bcrypt nor a write delays a read.
/// - Readers never wait for the writer: in WAL mode a reader sees the last committed state. They
///   are opened `query_only`, so a write sent down the read path fails loudly instead of racing.
///
/// SQLite's busy timeout is still set, for the one case it serves: another process (an admin
/// command) holding the write lock for a moment.
final class SQLiteConnectionPool: Sendable {
    private let writer: SQLiteConnection
    private let writerTurn = AsyncSemaphore(turns: 1)
    private let idleReaders: NIOLockedValueBox<[SQLiteConnection]>
    private let readerTurns: AsyncSemaphore
    private let writerThread: NIOThreadPool
    private let readerThreads: NIOThreadPool

    /// Milliseconds a connection waits for another process's lock before it reports the database busy.
    static let busyTimeoutMilliseconds = 5_000

    private init(
        writer: SQLiteConnection,
        readers: [SQLiteConnection],
        writerThread: NIOThreadPool,
        readerThreads: NIOThreadPool
    ) {
        self.writer = writer
        self.idleReaders = NIOLockedValueBox(readers)
        self.readerTurns = AsyncSemaphore(turns: readers.count)
        self.writerThread = writerThread
        self.readerThreads = readerThreads
    }

    /// Opens the file (created readable by its owner only when it does not exist yet), switches it
    /// to write-ahead logging, and opens the writer and `readerCount` readers.
    static func open(path: String, readerCount: Int, logger: Logger) async throws -> SQLiteConnectionPool {
        try SQLiteFile.createPrivately(at: path)
        let writerThread = NIOThreadPool(numberOfThreads: 1)
        let readerThreads = NIOThreadPool(numberOfThreads: readerCount)
        writerThread.start()
        readerThreads.start()
        var opened: [SQLiteConnection] = []
        do {
            let writer = try await connect(
                path,
                on: writerThread,
                logger: logger,
                pragmas: [
                    "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON",
                    "PRAGMA busy_timeout = \(busyTimeoutMilliseconds)",
                ]
            )
            opened.append(writer)
            var readers: [SQLiteConnection] = []
            for _ in 0..<readerCount {
                let reader = try await connect(
                    path,
                    on: readerThreads,
                    logger: logger,
                    pragmas: [
                        "PRAGMA foreign_keys = ON", "PRAGMA busy_timeout = \(busyTimeoutMilliseconds)", "PRAGMA query_only = ON",
                    ]
                )
                opened.append(reader)
                readers.append(reader)
            }
            return SQLiteConnectionPool(writer: writer, readers: readers, writerThread: writerThread, readerThreads: readerThreads)
        } catch {
            for connection in opened { try? await connection.close() }
            try? await writerThread.shutdownGracefully()
            try? await readerThreads.shutdownGracefully()
            throw error
        }
    }

    private static func connect(
        _ path: String,
        on threads: NIOThreadPool,
        logger: Logger,
        pragmas: [String]
    ) async throws
        -> SQLiteConnection
    {
        let connection = try await SQLiteConnection.open(
            storage: .file(path: path),
            threadPool: threads,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.next()
        )
        do {
            for pragma in pragmas { _ = try await connection.query(pragma) }
        } catch {
            try? await connection.close()
            throw error
        }
        return connection
    }

    /// Runs `body` on an idle reader connection, waiting for one in turn when all are busy.
    func read<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await readerTurns.withTurn {
            let reader = idleReaders.withLockedValue { $0.removeLast() }
            defer { idleReaders.withLockedValue { $0.append(reader) } }
            return try await body(reader.sql(queryLogLevel: nil))
        }
    }

    /// Runs `body` in a transaction on the writer, after the writes queued before it: committed
    /// when it returns, rolled back when it throws.
    func write<Result>(_ body: (any SQLDatabase) async throws -> Result) async throws -> Result {
        try await writerTurn.withTurn {
            // IMMEDIATE takes the write lock at once, so another process's writer cannot slip in half-way.
            try await writer.sql(queryLogLevel: nil).transaction(beginning: "BEGIN IMMEDIATE", body)
        }
    }

    /// How many writes waited for the writer, and reads for a reader, since the file was opened.
    var waits: (writer: Int, reader: Int) { (writerTurn.waits, readerTurns.waits) }

    /// Closes every connection and stops their threads.
    func close() async {
        try? await writerTurn.wait()
        try? await writer.close()
        for reader in idleReaders.withLockedValue({ $0 }) { try? await reader.close() }
        try? await writerThread.shutdownGracefully()
        try? await readerThreads.shutdownGracefully()
    }
}
