import Foundation

/// A contact with the key the list computed for it. A class, so that sorting and filtering move
/// one reference rather than a dozen strings.
final class Entry: Sendable {
    let contact: Contact
    let key: ContactKey

    init(contact: Contact, key: ContactKey) {
        self.contact = contact
        self.key = key
    }

    @inline(__always)
    static func precedes(_ lhs: Entry, _ rhs: Entry) -> Bool {
        ContactKey.precedes(lhs.key, rhs.key)
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

    /// Sorts and groups `entries` from scratch. The sort keys are copied into one buffer first, and
    /// each entry's first eight key bytes into an integer, so that most comparisons are one integer
    /// compare and the rest a `memcmp`, with no reference counting.
    init(_ entries: [Entry]) {
        var bytes: [UInt8] = []
        var offsets: [Int] = []
        var order: [(prefix: UInt64, index: Int)] = []
        offsets.reserveCapacity(entries.count + 1)
        order.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            offsets.append(bytes.count)
            bytes.append(contentsOf: entry.key.sortBytes)
            var prefix: UInt64 = 0
            for position in 0..<8 {
                let byte = position < entry.key.sortBytes.count ? entry.key.sortBytes[position] : 0
                prefix = prefix << 8 | UInt64(byte)
            }
            order.append((prefix, index))
        }
        offsets.append(bytes.count)
        bytes.withUnsafeBufferPointer { bytes in
            offsets.withUnsafeBufferPointer { offsets in
                let base = bytes.baseAddress
                order.sort { lhs, rhs in
                    if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix }
                    let lhsCount = offsets[lhs.index + 1] - offsets[lhs.index]
                    let rhsCount = offsets[rhs.index + 1] - offsets[rhs.index]
                    let common = min(lhsCount, rhsCount)
                    let result = common == 0 ? 0 : memcmp(base! + offsets[lhs.index], base! + offsets[rhs.index], common)
                    return result != 0 ? result < 0 : lhsCount < rhsCount
                }
            }
        }
        var sections: [Section] = []
        for (_, index) in order {
            let entry = entries[index]
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
