import KinshipContacts
import Testing

@Suite("Selection")
struct SelectionTests {
    let contacts = [Contact(id: "a", name: "Ada"), Contact(id: "b", name: "Bob"), Contact(id: "c", name: "Cy")]

    @Test("multiple selection is kept by id across searches, re-sorts and updates")
    func multiple() {
        var list = ContactList(contacts)
        list.select("a")
        list.select("c")
        list.searchText = "bob"
        #expect(list.selection == ["a", "c"])
        list.sortOrder = .lastName
        list.insert(Contact(id: "a", name: "Adeline"))
        #expect(list.selectedContacts.map(\.name) == ["Adeline", "Cy"])
        list.toggleSelection("c")
        #expect(list.selection == ["a"])
        list.remove(id: "a")
        #expect(list.selection.isEmpty, "a removed contact leaves the selection")
        list.select("nobody")
        #expect(list.selection.isEmpty)
    }

    @Test("single selection replaces the selected contact")
    func single() {
        var list = ContactList(contacts, selectionMode: .single)
        list.select("a")
        list.select("b")
        #expect(list.selection == ["b"])
        var multiple = ContactList(contacts)
        multiple.select("a")
        multiple.select("b")
        multiple.selectionMode = .single
        #expect(multiple.selection == ["a"])
    }

    @Test("clearSelection clears the search text too")
    func clear() {
        var list = ContactList(contacts)
        list.select("a")
        list.searchText = "a"
        list.clearSelection()
        #expect(list.selection.isEmpty)
        #expect(list.searchText == "")
        #expect(list.sections.flatMap(\.contacts).count == 3)
    }
}
