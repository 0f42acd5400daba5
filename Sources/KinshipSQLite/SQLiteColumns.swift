/// The column names of a prepared statement's result, and where each name is in a row (the first
/// column of a name wins, as in SQLiteNIO).
package final class SQLiteColumns: Sendable {
    package let names: [String]
    private let positions: [String: Int]

    init(names: [String]) {
        self.names = names
        self.positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Where the column `name` is in a row, or `nil` when the result has no such column.
    package func position(of name: String) -> Int? { positions[name] }
}
