/// Which section a contact is filed under: a pinned one, a letter, or `#`.
public enum SectionID: Hashable, Sendable, CustomStringConvertible {
    /// A leading section the list was told to keep first ("Friend requests").
    case pinned(String)
    /// `A` … `Z`.
    case letter(Character)
    /// `#`: names that start with a digit, a symbol or an emoji, or have no name.
    case other

    /// The section's title, also its entry in the index.
    public var title: String {
        switch self {
        case .pinned(let title): title
        case .letter(let letter): String(letter)
        case .other: "#"
        }
    }

    /// The section's title.
    public var description: String { title }

    /// `A` … `Z`, made once.
    static let letters: [SectionID] = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { .letter(Character(Unicode.Scalar($0))) }
}

/// One section of a contact list, as a table view shows it.
public struct ContactSection: Sendable, Hashable, Identifiable {
    /// Which section this is.
    public let id: SectionID
    /// The contacts in it, in list order.
    public let contacts: [Contact]

    /// The section's title, also its entry in the index.
    public var title: String { id.title }
}

/// A row's place in the sections: section index and row index.
public struct RowPosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section's index among the visible sections.
    public var section: Int
    /// The row's index inside its section.
    public var row: Int

    /// The position of row `row` in section `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Orders positions by section, then row.
    public static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
        (lhs.section, lhs.row) < (rhs.section, rhs.row)
    }

    /// `[section, row]`.
    public var description: String { "[\(section), \(row)]" }
}
