import Foundation
import NIOConcurrencyHelpers
import SQLKit

/// How the database runs one statement, and whether any step of it reads a whole table.
public struct QueryPlan: Sendable {
    /// The statement, its whitespace collapsed.
    public let sql: String
    /// The plan's steps as the engine describes them (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN`
    /// on PostgreSQL, one node a line).
    public let steps: [String]
    /// The tables a step reads whole, with no index to narrow it: empty for a statement whose
    /// cost does not grow with the size of the platform.
    public let fullScans: [String]

    /// Tables that are read whole by design and stay a handful of rows whatever the platform's
    /// size: the id_token signing keys.
    static let smallByDesign: Set<String> = ["signing_keys", "schema_migrations"]
}

extension Database {
    /// Forgets the statements recorded so far: those run from now on are the ones
    /// ``recordedQueryPlans()`` explains.
    public func forgetRecordedStatements() {
        statementLog?.clear()
    }

    /// The plans of every statement this database has run since it was opened with
    /// `recordingStatements`, in the order each was first run. Statements that plan nothing
    /// (schema changes, settings) are left out. PostgreSQL plans with sequential scans, merge joins
    /// and hash joins turned off: on a small platform it may rightly walk a whole table to join it
    /// (the cheaper plan at that size), so each join is asked to look its rows up instead, and a
    /// scan left in a plan is one no index can avoid. The values it writes into conditions
    /// are masked (`'…'`), so a plan never holds a token hash or an address. (PostgreSQL may walk a
    /// whole multicolumn index to meet a condition on its second column; SQLite calls the same walk
    /// a `SCAN`, so the SQLite plans catch it.)
    ///
    /// - Throws: ``DatabaseUnavailable``, or the engine's error for a statement it cannot explain.
    public func recordedQueryPlans() async throws -> [QueryPlan] {
        guard let statementLog else { return [] }
        var plans: [QueryPlan] = []
        for statement in statementLog.statements where Self.isPlannable(statement.sql) {
            plans.append(try await explain(statement))
        }
        return plans
    }

    private static func isPlannable(_ sql: String) -> Bool {
        let verb = sql.drop(while: \.isWhitespace).prefix(while: { $0.isLetter }).uppercased()
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH"].contains(verb)
    }

    private func explain(_ statement: StatementLog.Statement) async throws -> QueryPlan {
        let sql = statement.sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        switch engine {
        case .sqlite:
            // A write transaction, though nothing is written: EXPLAIN of an UPDATE on a reader
            // that is opened query_only is not worth the doubt.
            let details = try await write { connection in
                try await Self.rows(of: ReplayedStatement("EXPLAIN QUERY PLAN ", statement), on: connection).map {
                    try $0.decode(column: "detail", as: String.self)
                }
            }
            return QueryPlan(sql: sql, steps: details, fullScans: Self.sqliteFullScans(details))
        case .postgres:
            let json = try await write { connection in
                for setting in ["enable_seqscan", "enable_mergejoin", "enable_hashjoin"] {
                    try await connection.raw("SET LOCAL \(unsafeRaw: setting) = off").run()
                }
                return try await Self.rows(of: ReplayedStatement("EXPLAIN (FORMAT JSON) ", statement), on: connection).first.map {
                    try $0.decode(column: "QUERY PLAN", as: String.self)
                }
            }
            let nodes = Self.postgresNodes(json ?? "[]")
            return QueryPlan(
                sql: sql,
                steps: nodes.map(\.description),
                fullScans: nodes.compactMap { $0.isFullScan ? $0.relation : nil }.filter { !QueryPlan.smallByDesign.contains($0) }
            )
        }
    }

    private static func rows(of statement: ReplayedStatement, on connection: any SQLDatabase) async throws -> [any SQLRow] {
        let rows = NIOLockedValueBox<[any SQLRow]>([])
        try await connection.execute(sql: statement) { row in rows.withLockedValue { $0.append(row) } }
        return rows.withLockedValue { $0 }
    }

    /// SQLite's `SCAN` steps over tables (not over the constant rows of a `VALUES` list, a
    /// subquery or a common table expression it built itself; such an expression is read under
    /// its own name, so a statement should not give it another).
    static func sqliteFullScans(_ details: [String]) -> [String] {
        let built = Set(
            details.compactMap { detail -> String? in
                for prefix in ["CO-ROUTINE ", "MATERIALIZE "] where detail.hasPrefix(prefix) { return String(detail.dropFirst(prefix.count)) }
                return nil
            }
        )
        return details.compactMap { detail in
            guard detail.hasPrefix("SCAN "), !detail.hasSuffix("CONSTANT ROW"), !detail.hasSuffix("CONSTANT ROWS") else { return nil }
            let target = String(detail.dropFirst(5).prefix(while: { $0 != " " }))
            guard !target.hasPrefix("("), !built.contains(target), !QueryPlan.smallByDesign.contains(target) else {
                return nil
            }
            return target
        }
    }

    /// One node of a PostgreSQL plan.
    struct PostgresPlanNode {
        let type: String
        let relation: String?
        let index: String?
        let condition: String?
        let depth: Int

        /// A table read whole: a sequential scan, or an index walked from end to end with no condition.
        var isFullScan: Bool {
            relation != nil && (type == "Seq Scan" || (type.hasPrefix("Index") && condition == nil))
        }

        var description: String {
            String(repeating: "  ", count: depth) + type + (relation.map { " on " + $0 } ?? "") + (index.map { " using " + $0 } ?? "")
                + (condition.map { " (" + $0 + ")" } ?? "")
        }
    }

    /// A condition with each quoted value replaced by `'…'`: PostgreSQL writes the statement's
    /// values into the conditions of a plan.
    static func maskingValues(_ condition: String) -> String {
        condition.replacing(/'(?:[^']|'')*'/, with: "'…'")
    }

    static func postgresNodes(_ json: String) -> [PostgresPlanNode] {
        guard let data = json.data(using: .utf8), let top = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]],
            let plan = top.first?["Plan"] as? [String: Any]
        else { return [] }
        var nodes: [PostgresPlanNode] = []
        func walk(_ node: [String: Any], depth: Int) {
            nodes.append(
                PostgresPlanNode(
                    type: node["Node Type"] as? String ?? "?",
                    relation: node["Relation Name"] as? String,
                    index: node["Index Name"] as? String,
                    condition: ((node["Index Cond"] ?? node["Recheck Cond"]) as? String).map(maskingValues),
                    depth: depth
                )
            )
            for child in node["Plans"] as? [[String: Any]] ?? [] { walk(child, depth: depth + 1) }
        }
        walk(plan, depth: 0)
        return nodes
    }
}

/// A statement as the log kept it (already in the engine's dialect, its values beside it), run
/// again after `prefix`.
struct ReplayedStatement: SQLExpression {
    let prefix: String
    let statement: StatementLog.Statement

    init(_ prefix: String, _ statement: StatementLog.Statement) {
        self.prefix = prefix
        self.statement = statement
    }

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(prefix + statement.sql)
        serializer.binds += statement.binds
    }
}
