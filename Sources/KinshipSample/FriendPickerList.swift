import KinshipContacts
import KinshipKit

/// What the friend picker shows for a search: sections in order, each with its friends, and the
/// index of section titles. Built with ``KinshipContacts/ContactList``, so pinyin and initials
/// match as they do in the SDK (`zw` and `zhang` find 张伟).
struct FriendPickerList: Encodable, Sendable {
    struct Friend: Encodable, Sendable {
        let id: String
        let name: String
        let pictureURL: String?
    }

    struct Section: Encodable, Sendable {
        let title: String
        let friends: [Friend]
    }

    let sections: [Section]
    let index: [String]
    /// Friends before the search.
    let total: Int
    /// Friends the search matched.
    let matched: Int
    /// Why the list is empty, when that needs saying.
    let problem: SampleProblem?

    init(friends: [GraphFriend], search: String, sortOrder: KinshipContacts.SortOrder) {
        var list = ContactList(friends.map(Contact.init), sortOrder: sortOrder)
        list.searchText = search
        sections = list.sections.map { section in
            Section(
                title: section.title,
                friends: section.contacts.map {
                    Friend(id: $0.id, name: list.displayName(of: $0), pictureURL: $0.pictureURL)
                }
            )
        }
        index = list.indexTitles
        total = list.count
        matched = sections.reduce(0) { $0 + $1.friends.count }
        problem =
            total == 0
            ? SampleProblem(
                title: "No friends here yet",
                message:
                    "None of your Kinship friends use Kinship Sample yet. Friends show up here once they log in to it and share their friends list.",
                action: nil
            )
            : nil
    }

    init(problem: SampleProblem) {
        (sections, index, total, matched) = ([], [], 0, 0)
        self.problem = problem
    }
}
