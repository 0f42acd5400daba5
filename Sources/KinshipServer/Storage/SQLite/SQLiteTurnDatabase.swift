import Atomics
import KinshipSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// A connection as SQLKit sees it during one read or write the pool lent it to: queries in
/// SQLiteKit's dialect, values encoded and decoded by SQLiteKit's coders, each statement run at
/// once on the connection's thread (where the read or write runs).
///
/// Queries are never logged: their binds hold password and token hashes.
struct SQLiteTurnDatabase: SQLDatabase {
    /// Whether the read or write this connection was lent to is still running, and whether one of
    /// its statements is.
    final class Turn: Sendable {
        private let open = ManagedAtomic(true)
        private let running = ManagedAtomic(false)

        /// Ends the turn: later statements through it throw ``SQLiteFailure/usedAfterItsTurn``.
        func end() { open.store(false, ordering: .releasing) }

        var isOpen: Bool { open.load(ordering: .acquiring) }

        /// Runs one statement. The connection has no mutex of its own (it is opened in SQLite's
        /// multi-thread mode), so two statements at once on it would corrupt its state: that stops
        /// the process here, saying so, instead.
        func statement<Result>(_ body: () throws -> Result) rethrows -> Result {
            precondition(
                running.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged,
                "two statements ran at once on one SQLite connection: a read or write body must not run its statements concurrently"
            )
            defer { running.store(false, ordering: .releasing) }
            return try body()
        }
    }

    /// SQLiteKit's encoder for bound values other than text and integers, kept for every statement:
    /// `SQLiteDataEncoder()` makes a `JSONEncoder` each time.
    private static let encoder = SQLiteDataEncoder()

    let handle: SQLiteHandle
    let thread: SQLiteThread
    let turn: Turn
    let logger: Logger

    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    var version: (any SQLDatabaseReportedVersion)? { SQLiteLibraryVersion() }
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        guard turn.isOpen else { throw SQLiteFailure.usedAfterItsTurn }
        let (sql, binds) = serialize(query)
        let values = try binds.map(Self.value)
        try turn.statement {
            try handle.execute(sql, values) { columns, values in onRow(SQLiteResultRow(columns: columns, values: values)) }
        }
    }

    /// A bound value as SQLite stores it: text and integers as they are, the rest as SQLiteKit
    /// encodes them.
    private static func value(_ bind: any Encodable & Sendable) throws -> SQLiteValue {
        switch bind {
        case let text as String: .text(text)
        case let integer as Int: .integer(Int64(integer))
        default: SQLiteValue(try encoder.encode(bind))
        }
    }

    /// SQLKit's older, future-based entry: the same statement, run on the connection's thread.
    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { [self] in try await thread.run { try await execute(sql: query, onRow) } }
        return promise.futureResult
    }
}

/// The SQLite library's version, as SQLKit asks for it.
struct SQLiteLibraryVersion: SQLDatabaseReportedVersion {
    var intValue: Int { SQLiteHandle.libraryVersion.number }
    var stringValue: String { SQLiteHandle.libraryVersion.text }

    func isEqual(to otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        (otherVersion as? Self)?.intValue == intValue
    }

    func isOlder(than otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        intValue < (otherVersion as? Self)?.intValue ?? 0
    }
}
