internal import CSQLite3

/// Why an SQLite call failed: SQLite's own answer, or a misuse of a connection that Kinship refuses
/// before SQLite sees it.
package enum SQLiteFailure: Error, CustomStringConvertible, Equatable {
    /// SQLite answered `code` (an extended result code) with `message`.
    case sqlite(code: Int32, message: String)
    /// The database was closed (the server is stopping).
    case closed
    /// A connection lent to one read or write was used after that read or write had ended.
    case usedAfterItsTurn
    /// One call held more than one SQL statement; SQLite runs them one at a time.
    case severalStatements
    /// A row was asked for a column the query did not return.
    case missingColumn(String)
    /// A row's column (counted from 1) held a value of another kind than the reader expected.
    case unexpectedValue(column: Int, expected: String)

    /// SQLite's primary result code (`SQLITE_BUSY` for `SQLITE_BUSY_TIMEOUT`, …), or `nil` for a misuse.
    package var primaryCode: Int32? {
        guard case .sqlite(let code, _) = self else { return nil }
        return code & 0xff
    }

    /// The file stayed locked by another connection or process past the busy timeout.
    package var isLocked: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    /// A `UNIQUE`, `NOT NULL`, `CHECK` or foreign key constraint refused the change.
    package var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

    package var description: String {
        switch self {
        case .sqlite(let code, let message): "SQLite error \(code): \(message)"
        case .closed: "The SQLite database is closed."
        case .usedAfterItsTurn: "An SQLite connection was used after the read or write it was lent to had ended."
        case .severalStatements: "An SQL call held several statements; send them one at a time."
        case .missingColumn(let column): "The query returned no column \(column)."
        case .unexpectedValue(let column, let expected): "Column \(column) of the row did not hold \(expected): the query and its reader disagree."
        }
    }
}
