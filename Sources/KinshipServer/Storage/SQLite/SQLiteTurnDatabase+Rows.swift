import KinshipSQLite

extension SQLiteTurnDatabase {
    /// Runs one statement straight on the connection, without SQLKit: `binds` fill its `?`
    /// placeholders in order, and `read` makes a value of each row it returns, column by column in
    /// the order the statement lists them.
    ///
    /// - Throws: ``SQLiteFailure`` when SQLite refuses the statement, a row does not hold what
    ///   `read` expects, or the read or write this connection was lent to has ended.
    func rows<Row>(_ sql: String, _ binds: [SQLiteValue], _ read: (inout SQLiteRowReader) throws -> Row) throws -> [Row] {
        guard turn.isOpen else { throw SQLiteFailure.usedAfterItsTurn }
        var rows: [Row] = []
        try turn.statement {
            try handle.execute(sql, binds) { _, values in
                var reader = SQLiteRowReader(values)
                rows.append(try read(&reader))
            }
        }
        return rows
    }

    /// Runs one statement that returns no rows, or whose rows do not matter, as ``rows(_:_:_:)`` does.
    func run(_ sql: String, _ binds: [SQLiteValue]) throws {
        guard turn.isOpen else { throw SQLiteFailure.usedAfterItsTurn }
        try turn.statement { try handle.execute(sql, binds) }
    }
}
