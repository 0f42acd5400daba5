import KinshipContacts
import Testing

@Suite("Updates and change sets")
struct ChangeSetTests {
    @Test("an insert into a new section inserts the section")
    func newSection() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "c", name: "Cy")])
        let change = list.insert(Contact(id: "b", name: "Bob"))
        #expect(change.insertedSections == [1])
        #expect(change.insertedRows.isEmpty)
        #expect(list.indexTitles == ["A", "B", "C"])
    }

    @Test("an insert into an existing section inserts a row in order")
    func newRow() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "c", name: "Alan")])
        let change = list.insert(Contact(id: "b", name: "Ag"))
        #expect(change.insertedRows == [RowPosition(section: 0, row: 1)])
        #expect(change.insertedSections.isEmpty)
    }

    @Test("removing the last contact of a section deletes the section")
    func removeSection() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "b", name: "Bob")])
        let change = list.remove(id: "a")
        #expect(change.deletedSections == [0])
        #expect(change.deletedRows.isEmpty)
        #expect(list.remove(id: "missing").isEmpty)
    }

    @Test("a rename moves the row; a change that keeps the place reloads it")
    func updates() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "b", name: "Abe"), Contact(id: "z", name: "Zed")])
        let moved = list.insert(Contact(id: "b", name: "Azra"))
        #expect(moved.movedRows == [.init(from: RowPosition(section: 0, row: 0), to: RowPosition(section: 0, row: 1))])
        let reloaded = list.insert(Contact(id: "b", name: "Azra", availability: .available))
        #expect(reloaded.reloadedRows == [RowPosition(section: 0, row: 1)])
        #expect(reloaded.movedRows.isEmpty)
        let same = list.insert(Contact(id: "b", name: "Azra", availability: .available))
        #expect(same.isEmpty)
    }

    @Test("duplicate ids are merged, never listed twice")
    func duplicates() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "a", name: "Ada Lovelace")])
        #expect(list.count == 1)
        #expect(list["a"]?.name == "Ada Lovelace")
        list.insert(contentsOf: [Contact(id: "b", name: "Bob"), Contact(id: "b", name: "Bobby")])
        #expect(list.sections.flatMap(\.contacts).map(\.name) == ["Ada Lovelace", "Bobby"])
    }

    @Test("with a search active, changes are reported for the visible rows only")
    func filtered() {
        var list = ContactList([Contact(id: "a", name: "Ada"), Contact(id: "b", name: "Adam")])
        list.searchText = "adam"
        #expect(list.insert(Contact(id: "c", name: "Cy")).isEmpty)
        let match = list.insert(Contact(id: "d", name: "Madame Adams"))
        #expect(match.insertedSections == [1])
        let renamedAway = list.insert(Contact(id: "b", name: "Bo"))
        #expect(renamedAway.deletedSections == [0])
    }
}
