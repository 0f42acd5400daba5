import ArgumentParser
import Foundation
import KinshipContacts
import KinshipXMPP

struct RosterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "roster",
        abstract: "Your chat friend list on an XMPP server: show it, send and answer friend requests.",
        discussion: """
            Connects over STARTTLS (certificates are verified; --trust-cert names the one certificate to \
            trust for a local test server), logs in with SCRAM, and fetches the roster.
            """,
        subcommands: [Show.self, Add.self, Accept.self, Reject.self, Remove.self],
        defaultSubcommand: Show.self
    )

    /// The account options, given before or after the subcommand.
    @OptionGroup var account: XMPPAccountOptions

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Print the friend list in sections, with subscription and presence.",
            discussion: """
                Friend requests (incoming, and yours not yet answered) come first, then friends by first \
                letter with # last. --json prints {"account", "sections": [{"title", "contacts": [{"jid", \
                "name", "subscription", "request", "availability"}]}]}; request is "incoming", "outgoing" or null.
                """
        )

        @ParentCommand var roster: RosterCommand
        var account: XMPPAccountOptions { roster.account }
        @Flag(help: "Print JSON instead of text.") var json = false
        @Option(help: ArgumentHelp("Seconds to wait for contacts' presence after logging in.", valueName: "seconds"))
        var presenceWait: Double = 1

        func run() async throws {
            let (jid, list) = try await account.withClient(sendPresence: true) { client in
                try await Task.sleep(for: .milliseconds(Int(presenceWait * 1000)))
                return (await client.boundJID?.bare, await client.contactList())
            }
            if json {
                try JSONOutput.print(RosterOutput(account: jid?.description ?? account.jid, list: list))
                return
            }
            RosterOutput.show(list, command: "kinship roster", empty: "No friends or requests yet. Send one with `kinship roster add JID`.")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send a friend request (adds the contact and asks for their presence).")
        @ParentCommand var roster: RosterCommand
        var account: XMPPAccountOptions { roster.account }
        @Argument(help: "The contact's address.") var contact: String
        @Option(help: "The name to show for them.") var name: String?

        func run() async throws {
            let jid = try account.parse(contact)
            try await account.withClient(sendPresence: false) { try await $0.add(jid, name: name) }
            print("Friend request sent to \(jid).")
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a friend request, and ask back so it goes both ways.")
        @ParentCommand var roster: RosterCommand
        var account: XMPPAccountOptions { roster.account }
        @Argument(help: "Who asked.") var contact: String
        @Flag(name: .customLong("no-subscribe-back"), help: "Only let them see your presence.") var noSubscribeBack = false

        func run() async throws {
            let jid = try account.parse(contact)
            // Presence makes the server resend the requests waiting for an answer.
            try await account.withClient(sendPresence: true) { try await $0.accept(jid, subscribeBack: !noSubscribeBack) }
            print("Accepted \(jid).")
        }
    }

    struct Reject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a friend request.")
        @ParentCommand var roster: RosterCommand
        var account: XMPPAccountOptions { roster.account }
        @Argument(help: "Who asked.") var contact: String

        func run() async throws {
            let jid = try account.parse(contact)
            try await account.withClient(sendPresence: false) { try await $0.reject(jid) }
            print("Refused \(jid).")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a friend (both subscriptions end).")
        @ParentCommand var roster: RosterCommand
        var account: XMPPAccountOptions { roster.account }
        @Argument(help: "The friend's address.") var contact: String

        func run() async throws {
            let jid = try account.parse(contact)
            try await account.withClient(sendPresence: false) { try await $0.remove(jid) }
            print("Removed \(jid).")
        }
    }
}

/// `kinship roster --json`, and the text lines.
struct RosterOutput: Encodable {
    struct Section: Encodable {
        let title: String
        let contacts: [Entry]
    }

    struct Entry: Encodable {
        let jid: String
        let name: String
        let subscription: String
        @ExplicitNull var request: String?
        let availability: String
    }

    let account: String
    let sections: [Section]

    init(account: String, list: ContactList) {
        self.account = account
        sections = list.sections.map { section in
            Section(
                title: section.title,
                contacts: section.contacts.map { contact in
                    Entry(
                        jid: contact.payload["jid"] ?? contact.id,
                        name: list.displayName(of: contact),
                        subscription: contact.payload["subscription"] ?? "none",
                        request: contact.payload["request"],
                        availability: contact.availability.rawValue
                    )
                }
            )
        }
    }

    /// Prints the list in its sections, one line a contact; `empty` when there is nobody.
    static func show(_ list: ContactList, command: String, empty: String) {
        if list.count == 0 { print(empty) }
        for section in list.sections {
            print(section.title)
            for contact in section.contacts { print("  " + line(for: contact, in: list, command: command)) }
        }
    }

    static func line(for contact: Contact, in list: ContactList, command: String) -> String {
        let jid = contact.payload["jid"] ?? contact.id
        let name = list.displayName(of: contact)
        let who = name == jid ? jid : "\(name) <\(jid)>"
        switch contact.payload["request"] {
        case "incoming":
            let decline = command == "kinship roster" ? "reject" : "decline"
            return "\(who)  wants to be friends — `\(command) accept \(jid)` or `\(decline) \(jid)`"
        case "outgoing": return "\(who)  request sent, not answered yet"
        default: return "\(who)  \(contact.payload["subscription"] ?? "none")  \(contact.availability.rawValue)"
        }
    }
}
