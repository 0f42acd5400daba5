/// A value as SQLite stores it: one of its five storage classes.
package enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

extension SQLiteValue {
    /// Text, or `NULL` for `nil`.
    package init(_ text: String?) {
        self = text.map { .text($0) } ?? .null
    }

    /// An integer, or `NULL` for `nil`.
    package init(_ integer: Int?) {
        self = integer.map { .integer(Int64($0)) } ?? .null
    }
}
