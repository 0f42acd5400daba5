// A friend picker: the Graph friend list in sections, searchable, with a selection.

// snippet.hide
import Foundation
import KinshipContacts
import KinshipKit

let configuration = KinshipConfiguration(serverURL: URL(string: "https://kinship.example.com")!, appID: "1234567890")
let session = try await Session(appID: configuration.appID, cache: MemoryTokenCache())
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: CustomSchemePresenter { _ in }
)
let graph = GraphClient(configuration: configuration, tokens: loginManager)

// snippet.show
// snippet.load
var friends: [Contact] = []
for try await friend in graph.allFriends(pageSize: 100) {
    friends.append(Contact(friend))
}
var picker = ContactList(friends, sortOrder: .firstName, selectionMode: .multiple)
// snippet.end

// snippet.sections
for section in picker.sections {
    print(section.title, section.contacts.map(picker.displayName(of:)))
}
print("Index:", picker.indexTitles.joined(separator: " "))
// snippet.end

// snippet.search
picker.searchText = "ada"  // Sections and index now hold the matches only.
if let first = picker.sections.first?.contacts.first {
    picker.select(first.id)  // The selection survives the next search.
}
picker.searchText = ""
print("Invite:", picker.selectedContacts.map(\.name))
// snippet.end
