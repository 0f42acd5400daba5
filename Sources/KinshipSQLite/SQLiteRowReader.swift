/// Reads one result row's values in the order the statement selected them: each call takes the
/// next column. For statements whose columns are listed by name, so a record is made from its row
/// without looking a column up by name.
package struct SQLiteRowReader {
    private let values: [SQLiteValue]
    private var position = 0

    /// A reader at the row's first column.
    package init(_ values: [SQLiteValue]) {
        self.values = values
    }

    /// The next column, which must hold text.
    package mutating func text() throws(SQLiteFailure) -> String {
        guard let text = try optionalText() else { throw unexpected("text") }
        return text
    }

    /// The next column, which must hold text or `NULL`.
    package mutating func optionalText() throws(SQLiteFailure) -> String? {
        switch try next() {
        case .text(let text): return text
        case .null: return nil
        default: throw unexpected("text")
        }
    }

    /// The next column, which must hold an integer.
    package mutating func integer() throws(SQLiteFailure) -> Int {
        guard let integer = try optionalInteger() else { throw unexpected("an integer") }
        return integer
    }

    /// The next column, which must hold an integer or `NULL`.
    package mutating func optionalInteger() throws(SQLiteFailure) -> Int? {
        switch try next() {
        case .integer(let integer): return Int(integer)
        case .null: return nil
        default: throw unexpected("an integer")
        }
    }

    private mutating func next() throws(SQLiteFailure) -> SQLiteValue {
        guard position < values.count else { throw .missingColumn("#\(position + 1)") }
        defer { position += 1 }
        return values[position]
    }

    private func unexpected(_ expected: String) -> SQLiteFailure {
        .unexpectedValue(column: position, expected: expected)
    }
}
