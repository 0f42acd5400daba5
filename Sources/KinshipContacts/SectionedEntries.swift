/// A contact with the key the list computed for it.
struct Entry: Sendable {
    var contact: Contact
    var key: ContactKey

    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        ContactKey.precedes(lhs.key, lhs.contact.id, rhs.key, rhs.contact.id)
    }
}

/// Entries kept sorted and grouped into sections, so one contact can be found, added or removed
/// with two binary searches instead of a rebuild.
struct SectionedEntries: Sendable {
    struct Section: Sendable {
        let id: SectionID
        let rank: Int
        var entries: [Entry]
    }

    private(set) var sections: [Section] = []

    /// Sorts and groups `entries` from scratch.
    init(_ entries: [Entry]) {
        var sections: [Section] = []
        for entry in entries.sorted(by: Entry.precedes) {
            if sections.last?.rank == entry.key.sectionRank {
                sections[sections.count - 1].entries.append(entry)
            } else {
                sections.append(Section(id: entry.key.section, rank: entry.key.sectionRank, entries: [entry]))
            }
        }
        self.sections = sections
    }

    var sectionIDs: [SectionID] { sections.map(\.id) }

    var count: Int { sections.reduce(0) { $0 + $1.entries.count } }

    /// Where an entry is, if it is here.
    func position(of entry: Entry) -> RowPosition? {
        guard let section = sectionIndex(rank: entry.key.sectionRank).found else { return nil }
        let entries = sections[section].entries
        let row = insertionRow(for: entry, in: entries)
        guard row < entries.count, entries[row].contact.id == entry.contact.id else { return nil }
        return RowPosition(section: section, row: row)
    }

    /// Adds an entry in order, creating its section if needed.
    mutating func insert(_ entry: Entry) {
        let lookup = sectionIndex(rank: entry.key.sectionRank)
        if let section = lookup.found {
            sections[section].entries.insert(entry, at: insertionRow(for: entry, in: sections[section].entries))
        } else {
            sections.insert(Section(id: entry.key.section, rank: entry.key.sectionRank, entries: [entry]), at: lookup.index)
        }
    }

    /// Removes an entry if it is here, and its section if that leaves it empty.
    mutating func remove(_ entry: Entry) {
        guard let position = position(of: entry) else { return }
        sections[position.section].entries.remove(at: position.row)
        if sections[position.section].entries.isEmpty { sections.remove(at: position.section) }
    }

    /// Entries in list order that satisfy `isIncluded`, with their sections.
    func filter(_ isIncluded: (Entry) -> Bool) -> SectionedEntries {
        var result = SectionedEntries([])
        for section in sections {
            let entries = section.entries.filter(isIncluded)
            if !entries.isEmpty { result.sections.append(Section(id: section.id, rank: section.rank, entries: entries)) }
        }
        return result
    }

    private func sectionIndex(rank: Int) -> (found: Int?, index: Int) {
        var low = 0
        var high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].rank < rank { low = middle + 1 } else { high = middle }
        }
        return (low < sections.count && sections[low].rank == rank ? low : nil, low)
    }

    private func insertionRow(for entry: Entry, in entries: [Entry]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if Entry.precedes(entries[middle], entry) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
