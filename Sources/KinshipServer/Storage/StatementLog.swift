import Logging
import NIOConcurrencyHelpers
import NIOCore
import SQLKit

/// Every distinct SQL statement a process ran, with the values of its first run, kept so their
/// query plans can be checked (`kinship serve --explain-queries`, and the index tests). Off unless
/// asked for: then each statement costs a lock and a dictionary lookup.
final class StatementLog: Sendable {
    /// A statement as it was run.
    struct Statement: Sendable {
        let sql: String
        let binds: [any Encodable & Sendable]
    }

    private struct Entries {
        var order: [String] = []
        var bySQL: [String: Statement] = [:]
    }

    private let entries = NIOLockedValueBox(Entries())

    /// The statements, in the order each was first run.
    var statements: [Statement] {
        entries.withLockedValue { entries in entries.order.compactMap { entries.bySQL[$0] } }
    }

    /// Forgets what was recorded so far (what a start-up ran, say).
    func clear() {
        entries.withLockedValue { $0 = Entries() }
    }

    func record(_ sql: String, _ binds: [any Encodable & Sendable]) {
        entries.withLockedValue { entries in
            guard entries.bySQL[sql] == nil else { return }
            entries.order.append(sql)
            entries.bySQL[sql] = Statement(sql: sql, binds: binds)
        }
    }
}

/// A connection that notes each statement in a ``StatementLog`` before running it.
struct RecordingSQLDatabase: SQLDatabase {
    let base: any SQLDatabase
    let log: StatementLog

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let (sql, binds) = base.serialize(query)
        log.record(sql, binds)
        return base.execute(sql: query, onRow)
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, binds) = base.serialize(query)
        log.record(sql, binds)
        try await base.execute(sql: query, onRow)
    }
}
