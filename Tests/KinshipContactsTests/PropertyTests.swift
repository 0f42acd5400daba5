import KinshipContacts
import PropertyBased
import Testing

/// Any sequence of inserts, updates, removals, searches and re-sorts leaves the same sections as
/// a fresh build from the same contacts, and every change set, applied the way a table view
/// applies it, turns the old rows into the new ones.
@Suite("Properties of updates")
struct PropertyTests {
    static let names = [
        "Ada Lovelace", "Émile Zola", "Emma", "张三", "曾小贤", "尉迟恭", "Кирилл", "ελένη", "김민수", "カタカナ", "42", "😀",
        "", "Zed", "zed", "Ada", "ﾊﾝｶｸ", "Łukasz", "赵四", "单田芳", "Bob", "bob", "Ørsted", "#tag",
    ]

    /// Decodes a generated number into an operation on a list of up to 12 ids.
    static func apply(_ code: Int, to list: inout ContactList) -> ContactListChange? {
        let id = "id\(code % 12)"
        let name = names[(code / 12) % names.count]
        switch (code / 300) % 7 {
        case 0, 1, 2:
            return list.insert(Contact(id: id, name: name, pinnedSection: code % 5 == 0 ? "Requests" : nil))
        case 3:
            return list.remove(id: id)
        case 4:
            return list.insert(contentsOf: [Contact(id: id, name: name), Contact(id: "id\((code + 5) % 12)", name: names[code % names.count])])
        case 5:
            list.searchText = ["", "a", "z", "zs", "ki", "e"][code % 6]
            return nil
        default:
            list.sortOrder = code % 2 == 0 ? .firstName : .lastName
            return nil
        }
    }

    static func layout(_ list: ContactList) -> [(SectionID, [String])] {
        list.sections.map { ($0.id, $0.contacts.map(\.id)) }
    }

    @Test func updatesMatchAFreshBuild() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...2099).array(of: 1...40)) { codes in
            var list = ContactList(pinnedSections: ["Requests"])
            for code in codes {
                _ = Self.apply(code, to: &list)
                var fresh = ContactList(list.contacts, sortOrder: list.sortOrder, pinnedSections: ["Requests"])
                fresh.searchText = list.searchText
                #expect(list.sections == fresh.sections, "after \(codes)")
            }
        }
    }

    @Test func changeSetsReplayOntoTheOldRows() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...2099).array(of: 1...40)) { codes in
            var list = ContactList(pinnedSections: ["Requests"])
            for code in codes {
                let before = Self.layout(list)
                guard let change = Self.apply(code, to: &list) else { continue }
                let after = Self.layout(list)
                let replayed = TableViewModel.apply(change, to: before, newSectionIDs: after.map(\.0), newRows: after)
                #expect(replayed.map(\.1) == after.map(\.1), "change \(change) after \(codes)")
            }
        }
    }
}

/// Applies a change set as UIKit's batch updates do: deletions (rows, then sections) in old
/// positions, then insertions (sections, then rows) in new positions; moves are a deletion plus
/// an insertion of the same row.
enum TableViewModel {
    static func apply(
        _ change: ContactListChange,
        to old: [(SectionID, [String])],
        newSectionIDs: [SectionID],
        newRows: [(SectionID, [String])]
    ) -> [(SectionID, [String])] {
        var sections = old.map { (id: $0.0, rows: $0.1.map(Optional.some)) }
        var carried: [RowPosition: String] = [:]
        for move in change.movedRows { carried[move.to] = old[move.from.section].1[move.from.row] }
        for position in change.deletedRows + change.movedRows.map(\.from) { sections[position.section].rows[position.row] = nil }
        for index in change.deletedSections.sorted(by: >) { sections.remove(at: index) }
        var result = sections.map { (id: $0.id, rows: $0.rows.compactMap { $0 }) }
        for index in change.insertedSections.sorted() { result.insert((newSectionIDs[index], newRows[index].1), at: index) }
        let insertions = change.insertedRows.map { ($0, newRows[$0.section].1[$0.row]) } + carried.map { ($0.key, $0.value) }
        for (position, id) in insertions.sorted(by: { $0.0 < $1.0 }) { result[position.section].rows.insert(id, at: position.row) }
        return result.map { ($0.id, $0.rows) }
    }
}
