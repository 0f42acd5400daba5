import KinshipContacts
import Testing

@Suite("Sections and index letters")
struct SectionRulesTests {
    private func section(of name: String, sortOrder: SortOrder = .firstName) -> String {
        let list = ContactList([Contact(id: "1", name: name)], sortOrder: sortOrder)
        return list.sections.first?.title ?? "(none)"
    }

    @Test(
        "Chinese family names are read as names",
        arguments: [
            ("曾小贤", "Z"), ("单田芳", "S"), ("仇英", "Q"), ("解缙", "X"), ("区志伟", "O"), ("查良镛", "Z"), ("覃琳", "Q"),
            ("尉迟恭", "Y"), ("万俟卨", "M"), ("欧阳修", "O"), ("长孙无忌", "Z"), ("朴树", "P"), ("單田芳", "S"), ("张三", "Z"), ("李四", "L"),
        ]
    )
    func surnames(name: String, letter: String) {
        #expect(section(of: name) == letter, "\(name)")
    }

    @Test(
        "other scripts by transliteration, accents stripped",
        arguments: [
            ("Кирилл", "K"), ("ελένη", "E"), ("김민수", "G"), ("カタカナ", "K"), ("ひらがな", "H"), ("Émile", "E"), ("Łukasz", "L"),
            ("Ørsted", "O"), ("ｆｕｌｌ", "F"), ("Über", "U"), ("Ægir", "A"), ("  ada", "A"),
            ("ﬁona", "F"), ("ﬂora", "F"), ("ⓐda", "A"), ("𝐀da", "A"), ("ᴬda", "A"),
        ]
    )
    func transliteration(name: String, letter: String) {
        #expect(section(of: name) == letter, "\(name)")
    }

    @Test("digits, emoji, symbols, empty names go under #", arguments: ["42", "😀 Ada", "@ada", "", "   ", "#tag", "٣"])
    func other(name: String) {
        #expect(section(of: name) == "#", "\(name)")
    }

    @Test("sections run A–Z then #, empty ones omitted; the index matches the sections")
    func order() {
        let list = ContactList([
            Contact(id: "1", name: "Zoe"), Contact(id: "2", name: "7 Eleven"), Contact(id: "3", name: "Ada"),
            Contact(id: "4", name: "张三"), Contact(id: "5", name: "Émile"),
        ])
        #expect(list.indexTitles == ["A", "E", "Z", "#"])
        #expect(list.sections.map(\.title) == list.indexTitles)
        #expect(list.sections.last?.contacts.map(\.name) == ["7 Eleven"])
        #expect(list.sections[2].contacts.map(\.name) == ["张三", "Zoe"])
    }

    @Test("pinned sections stay first, in the order given, and are not letters")
    func pinned() {
        let list = ContactList(
            [
                Contact(id: "1", name: "Ada"), Contact(id: "2", name: "Bob", pinnedSection: "Friend requests"),
                Contact(id: "3", name: "Cy", pinnedSection: "New friends"), Contact(id: "4", name: "Al", pinnedSection: "Friend requests"),
                Contact(id: "5", name: "Dee", pinnedSection: "Not configured"),
            ],
            pinnedSections: ["New friends", "Friend requests"]
        )
        #expect(list.indexTitles == ["New friends", "Friend requests", "A", "D"])
        #expect(list.sections[1].contacts.map(\.name) == ["Al", "Bob"])
    }

    @Test("within a section Chinese names sort by pinyin and accented names by their base letters")
    func collation() {
        let list = ContactList([
            Contact(id: "1", name: "周五"), Contact(id: "2", name: "张三"), Contact(id: "3", name: "赵四"), Contact(id: "4", name: "Zed"),
            Contact(id: "5", name: "Eve"), Contact(id: "6", name: "Émile"), Contact(id: "7", name: "Emma"), Contact(id: "8", name: "曾国藩"),
        ])
        let byTitle = Dictionary(uniqueKeysWithValues: list.sections.map { ($0.title, $0.contacts.map(\.name)) })
        #expect(byTitle["Z"] == ["Zed", "曾国藩", "张三", "赵四", "周五"])
        #expect(byTitle["E"] == ["Émile", "Emma", "Eve"])
    }

    @Test("sorting by first or last name, displaying first–last or last–first, independently")
    func orders() {
        let contacts = [
            Contact(id: "1", name: "Ada Lovelace", firstName: "Ada", lastName: "Lovelace"),
            Contact(id: "2", name: "Grace Hopper", firstName: "Grace", lastName: "Hopper"),
            Contact(id: "3", name: "Alan Turing"),
            Contact(id: "4", name: "张伟", firstName: "伟", lastName: "张"),
        ]
        var list = ContactList(contacts, sortOrder: .firstName, displayOrder: .firstLast)
        #expect(list.indexTitles == ["A", "G", "W"])
        #expect(list.sections[0].contacts.map(\.id) == ["1", "3"])
        list.sortOrder = .lastName
        #expect(list.indexTitles == ["H", "L", "T", "Z"])
        #expect(list.displayName(of: contacts[0]) == "Ada Lovelace")
        list.displayOrder = .lastFirst
        #expect(list.displayName(of: contacts[0]) == "Lovelace Ada")
        #expect(list.indexTitles == ["H", "L", "T", "Z"], "display order does not re-sort")
        #expect(list.displayName(of: contacts[3]) == "张伟", "CJK names are family name first, no space")
        #expect(list.displayName(of: contacts[2]) == "Alan Turing", "a name without parts is shown as given")
    }
}
