// Search a contact list as the person types, keeping only the newest search.

// snippet.hide
import KinshipContacts

let list = ContactList([Contact(id: "1", name: "张三"), Contact(id: "2", name: "Zhang Wei")])

// snippet.show
// snippet.filter
var filtered = list
filtered.searchText = "zs"  // Pinyin initials find 张三; "zhangsan" and "zhang san" do too.
print(filtered.sections.flatMap(\.contacts).map(\.name))
// snippet.end

// snippet.search
let search = ContactSearch()
/// Called on every keystroke, after a short pause (about 0.3 s) so fast typing runs one search.
func textChanged(to text: String) async {
    do {
        let matches = try await search.search(text, in: list)
        print(matches.sections.map(\.title))
    } catch {
        // A newer keystroke superseded this search: its answer is dropped.
    }
}
// snippet.end
