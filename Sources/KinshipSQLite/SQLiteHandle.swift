internal import CSQLite3

/// One connection to an SQLite file, with its prepared statements kept for reuse.
///
/// A handle is used by one task at a time, on its ``SQLiteThread``: whoever owns it hands it out in
/// turns. Its calls block while SQLite works, which is why they run on that thread.
package final class SQLiteHandle: @unchecked Sendable {
    /// A statement prepared once and run again with new values; its result's columns named once.
    private final class Statement {
        let pointer: OpaquePointer
        private var columns: SQLiteColumns
        /// How many times SQLite had compiled the statement again when `columns` were read.
        private var compilations: Int32

        init(pointer: OpaquePointer) {
            self.pointer = pointer
            self.columns = Statement.columns(of: pointer)
            self.compilations = sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_REPREPARE, 0)
        }

        /// The result's columns as the statement is compiled now: SQLite compiles it again after a
        /// schema change, so `SELECT *` may have gained columns.
        func currentColumns() -> SQLiteColumns {
            let now = sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_REPREPARE, 0)
            if now != compilations {
                columns = Statement.columns(of: pointer)
                compilations = now
            }
            return columns
        }

        static func columns(of pointer: OpaquePointer) -> SQLiteColumns {
            SQLiteColumns(names: (0..<sqlite3_column_count(pointer)).map { String(cString: sqlite3_column_name(pointer, $0)) })
        }
    }

    /// How many distinct statements a connection keeps prepared; past it the least recently
    /// prepared one is finalized (queries whose SQL grows with a list of values should not fill memory).
    package static let preparedStatementLimit = 200

    private var connection: OpaquePointer?
    private var statements: [String: Statement] = [:]
    private var preparedOrder: [String] = []

    /// SQLite's process-wide settings, made once before the first connection opens.
    private static let configured: Void = { _ = kinship_sqlite_disable_memory_statistics() }()

    /// Opens the file at `path` (created when missing) and runs `pragmas` on it.
    ///
    /// The connection is opened without its own mutex (SQLite's multi-thread mode): a handle is
    /// used by one thread at a time, so locking it on every call into SQLite (each column of each
    /// row read) would buy nothing.
    package init(path: String, busyTimeoutMilliseconds: Int32, pragmas: [String]) throws {
        Self.configured
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let connection else {
            let failure = SQLiteFailure.sqlite(
                code: code,
                message: connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            )
            sqlite3_close_v2(connection)
            throw failure
        }
        self.connection = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        do {
            for pragma in pragmas { try execute(pragma) }
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    /// The SQLite library's version: `3040001` and `3.40.1`, say.
    package static var libraryVersion: (number: Int, text: String) {
        (Int(sqlite3_libversion_number()), String(cString: sqlite3_libversion()))
    }

    /// Runs one SQL statement with `binds` for its `?` placeholders, calling `onRow` with the
    /// result's columns and each row's values.
    package func execute(_ sql: String, _ binds: [SQLiteValue] = [], onRow: (SQLiteColumns, [SQLiteValue]) throws -> Void) throws {
        guard let connection else { throw SQLiteFailure.closed }
        guard let statement = try prepared(sql, on: connection) else { return }
        defer {
            sqlite3_reset(statement.pointer)
            sqlite3_clear_bindings(statement.pointer)
        }
        try bind(binds, to: statement.pointer, on: connection)
        // Read after the first step: a statement SQLite compiled again (after a schema change) has
        // its new columns only then.
        var columns: SQLiteColumns?
        while true {
            switch sqlite3_step(statement.pointer) {
            case SQLITE_ROW:
                let current = columns ?? statement.currentColumns()
                columns = current
                try onRow(current, row(of: statement.pointer, count: current.names.count))
            case SQLITE_DONE:
                return
            default:
                throw failure(on: connection)
            }
        }
    }

    /// Runs one SQL statement that returns no rows, or whose rows do not matter.
    package func execute(_ sql: String, _ binds: [SQLiteValue] = []) throws {
        try execute(sql, binds) { _, _ in }
    }

    /// Finalizes every statement and closes the connection; later calls throw ``SQLiteFailure/closed``.
    package func close() {
        for statement in statements.values { sqlite3_finalize(statement.pointer) }
        statements.removeAll()
        preparedOrder.removeAll()
        if let connection { sqlite3_close_v2(connection) }
        connection = nil
    }

    // MARK: - Statements

    private func prepared(_ sql: String, on connection: OpaquePointer) throws(SQLiteFailure) -> Statement? {
        if let statement = statements[sql] { return statement }
        var pointer: OpaquePointer?
        var onlyOne = true
        let code = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v3(connection, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, &tail)
            if let tail, code == SQLITE_OK { onlyOne = Self.isBlank(tail) }
            return code
        }
        guard code == SQLITE_OK else { throw failure(on: connection) }
        guard onlyOne else {
            sqlite3_finalize(pointer)
            throw .severalStatements
        }
        // Only a comment or whitespace: nothing to run.
        guard let pointer else { return nil }
        if preparedOrder.count >= Self.preparedStatementLimit {
            let oldest = preparedOrder.removeFirst()
            if let statement = statements.removeValue(forKey: oldest) { sqlite3_finalize(statement.pointer) }
        }
        let statement = Statement(pointer: pointer)
        statements[sql] = statement
        preparedOrder.append(sql)
        return statement
    }

    /// Whether the SQL after the first statement holds nothing but whitespace and semicolons.
    private static func isBlank(_ tail: UnsafePointer<CChar>) -> Bool {
        var cursor = tail
        while cursor.pointee != 0 {
            switch UInt8(bitPattern: cursor.pointee) {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: ";"): cursor += 1
            default: return false
            }
        }
        return true
    }

    // MARK: - Values

    private func bind(_ binds: [SQLiteValue], to statement: OpaquePointer, on connection: OpaquePointer) throws(SQLiteFailure) {
        for (offset, value) in binds.enumerated() {
            let position = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let integer):
                code = sqlite3_bind_int64(statement, position, integer)
            case .real(let double):
                code = sqlite3_bind_double(statement, position, double)
            case .text(let text):
                var text = text
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { characters in
                        guard let start = characters.baseAddress else {
                            return sqlite3_bind_text64(statement, position, "", 0, kinship_sqlite_transient(), UInt8(SQLITE_UTF8))
                        }
                        return sqlite3_bind_text64(
                            statement,
                            position,
                            start,
                            UInt64(characters.count),
                            kinship_sqlite_transient(),
                            UInt8(SQLITE_UTF8)
                        )
                    }
                }
            case .blob(let blob):
                code = blob.withUnsafeBytes { bytes in
                    // A null pointer would bind NULL: an empty blob is bound as a zero-length one.
                    guard let start = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(statement, position, 0) }
                    return sqlite3_bind_blob64(statement, position, start, UInt64(bytes.count), kinship_sqlite_transient())
                }
            case .null:
                code = sqlite3_bind_null(statement, position)
            }
            guard code == SQLITE_OK else { throw failure(on: connection) }
        }
    }

    private func row(of statement: OpaquePointer, count: Int) -> [SQLiteValue] {
        (0..<Int32(count)).map { column in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER:
                return .integer(sqlite3_column_int64(statement, column))
            case SQLITE_FLOAT:
                return .real(sqlite3_column_double(statement, column))
            case SQLITE_TEXT:
                let bytes = sqlite3_column_text(statement, column)
                let count = Int(sqlite3_column_bytes(statement, column))
                return .text(bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
            case SQLITE_BLOB:
                let count = Int(sqlite3_column_bytes(statement, column))
                guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob([]) }
                return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
            default:
                return .null
            }
        }
    }

    private func failure(on connection: OpaquePointer) -> SQLiteFailure {
        .sqlite(code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)))
    }
}
