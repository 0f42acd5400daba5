import ArgumentParser
import KinshipContacts
import KinshipKit
import KinshipServer

struct FriendsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friends",
        abstract: "List your friends who use the app, or (admin) make two people friends.",
        subcommands: [List.self, Add.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List your friends who use the app, in sections by letter (needs user_friends).",
            discussion: """
                Only friends who use the app and granted it user_friends are listed, as on the Graph API. \
                --search matches names, pinyin and initials the way the contact list does ("zw" finds 张伟).

                --json prints {"friends": [{"id", "name", "first_name", "last_name", "section"}], \
                "total_count": N}, friends in list order; total_count counts all your friends, listed or not.
                """
        )

        @OptionGroup var account: AccountOptions
        @Option(help: ArgumentHelp("Show only friends matching this text.", valueName: "text")) var search: String?
        @Option(help: ArgumentHelp("Sort by first or last name.", valueName: "first|last")) var sort: NameSort = .first
        @Flag(help: "Print JSON instead of text.") var json = false
        @Flag(help: "Ask for user_friends in the browser if the app does not have it.") var ask = false

        func run() async throws {
            let client = try await account.openClient()
            let (friends, total) = try await client.call(ask: ask, command: "kinship friends") { graph throws(GraphError) in
                let total = try await graph.friends(limit: 1).summary?.totalCount
                var friends: [GraphFriend] = []
                for try await friend in graph.allFriends() { friends.append(friend) }
                return (friends, total)
            }
            var list = ContactList(friends.map(Contact.init), sortOrder: sort.order)
            list.searchText = search ?? ""
            if json {
                try JSONOutput.print(FriendListOutput(list, totalCount: total ?? friends.count))
                return
            }
            for section in list.sections {
                print(section.title)
                for contact in section.contacts { print("  \(list.displayName(of: contact))  (\(contact.id))") }
            }
            let shown = list.sections.reduce(0) { $0 + $1.contacts.count }
            let matching = search.map { " matching \"\($0)\"" } ?? ""
            print("\(shown) friend\(shown == 1 ? "" : "s")\(matching); \(total ?? friends.count) in all, \(friends.count) using this app.")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "(Admin) Make two people friends (friendship is mutual); prints {\"success\": true}."
        )

        @OptionGroup var storage: DatabaseOptions
        @Argument(help: "One person's user id.") var userID: String
        @Argument(help: "The other person's user id.") var friendID: String

        func run() async throws {
            try await storage.withPlatform { try await $0.friends.befriend(userID, friendID) }
            try JSONOutput.print(["success": true])
        }
    }
}

/// `--sort first|last`.
enum NameSort: String, ExpressibleByArgument, CaseIterable {
    case first, last

    var order: SortOrder { self == .first ? .firstName : .lastName }
}

/// `kinship friends --json`.
struct FriendListOutput: Encodable {
    struct Friend: Encodable {
        let id: String
        let name: String
        let firstName: String?
        let lastName: String?
        let section: String

        enum CodingKeys: String, CodingKey {
            case id, name, section
            case firstName = "first_name"
            case lastName = "last_name"
        }
    }

    let friends: [Friend]
    let totalCount: Int

    init(_ list: ContactList, totalCount: Int) {
        friends = list.sections.flatMap { section in
            section.contacts.map { Friend(id: $0.id, name: $0.name, firstName: $0.firstName, lastName: $0.lastName, section: section.title) }
        }
        self.totalCount = totalCount
    }

    enum CodingKeys: String, CodingKey {
        case friends
        case totalCount = "total_count"
    }
}
