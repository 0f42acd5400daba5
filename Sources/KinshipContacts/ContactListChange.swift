/// How the visible sections changed, in the terms a table view animates:
/// deletions and reloads in the old positions, insertions in the new ones, moves from old to new.
/// Rows inside a deleted or inserted section are not listed on their own.
public struct ContactListChange: Sendable, Equatable {
    /// A row that went from one place to another.
    public struct Move: Sendable, Hashable {
        public var from: RowPosition
        public var to: RowPosition

        public init(from: RowPosition, to: RowPosition) {
            self.from = from
            self.to = to
        }
    }

    public var deletedSections: [Int] = []
    public var insertedSections: [Int] = []
    public var deletedRows: [RowPosition] = []
    public var insertedRows: [RowPosition] = []
    public var movedRows: [Move] = []
    /// Rows whose contact changed but kept its place.
    public var reloadedRows: [RowPosition] = []

    public init() {}

    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && deletedRows.isEmpty && insertedRows.isEmpty
            && movedRows.isEmpty && reloadedRows.isEmpty
    }
}
