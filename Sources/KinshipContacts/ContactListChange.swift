/// How the visible sections changed, in the terms a table view animates:
/// deletions and reloads in the old positions, insertions in the new ones, moves from old to new.
/// Rows inside a deleted or inserted section are not listed on their own.
public struct ContactListChange: Sendable, Equatable {
    /// A row that went from one place to another.
    public struct Move: Sendable, Hashable {
        /// Where the row was.
        public var from: RowPosition
        /// Where the row is now.
        public var to: RowPosition

        /// A move from `from` to `to`.
        public init(from: RowPosition, to: RowPosition) {
            self.from = from
            self.to = to
        }
    }

    /// Sections that went away, by old index.
    public var deletedSections: [Int] = []
    /// Sections that appeared, by new index.
    public var insertedSections: [Int] = []
    /// Rows that went away, at their old positions.
    public var deletedRows: [RowPosition] = []
    /// Rows that appeared, at their new positions.
    public var insertedRows: [RowPosition] = []
    /// Rows that moved.
    public var movedRows: [Move] = []
    /// Rows whose contact changed but kept its place.
    public var reloadedRows: [RowPosition] = []

    /// No change.
    public init() {}

    /// Whether nothing changed.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && reloadedRows.isEmpty
    }
}
