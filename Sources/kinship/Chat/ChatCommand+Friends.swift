import ArgumentParser
import KinshipXMPP

extension ChatCommand {
    struct Friends: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Your chat friend list with who is online, in sections; friend requests first.",
            discussion: """
                The list is your Kinship friend list. --json prints {"account", "sections": [{"title", \
                "contacts": [{"jid", "name", "subscription", "request", "availability"}]}]}; request is \
                "incoming", "outgoing" or null.
                """
        )

        @OptionGroup var chat: ChatLoginOptions
        @Flag(help: "Print JSON instead of text.") var json = false
        @Option(help: ArgumentHelp("Seconds to wait for friends' presence after logging in.", valueName: "seconds"))
        var presenceWait: Double = 1

        func run() async throws {
            let (jid, list) = try await chat.withClient(presence: true) { client in
                try await Task.sleep(for: .milliseconds(Int(presenceWait * 1000)))
                return (await client.boundJID?.bare, await client.contactList())
            }
            if json {
                try JSONOutput.print(RosterOutput(account: jid?.description ?? "", list: list))
                return
            }
            RosterOutput.show(list, command: "kinship chat", empty: "No friends or requests yet. Find people on Kinship's friends page.")
        }
    }

    struct Accept: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Accept a friend request: you become friends on Kinship.")
        @OptionGroup var chat: ChatLoginOptions
        @Argument(help: "Who asked: a name, a user id or a chat address.") var friend: String

        func run() async throws {
            let name = try await chat.withClient(presence: true) { client in
                try await Task.sleep(for: .milliseconds(300))
                let jid = try await ChatLoginOptions.friend(friend, of: client)
                try await client.accept(jid, subscribeBack: false)
                let asked = await client.requesterNames[jid]
                return asked ?? jid.description
            }
            print("You and \(name) are friends now.")
        }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline a friend request.")
        @OptionGroup var chat: ChatLoginOptions
        @Argument(help: "Who asked: a name, a user id or a chat address.") var friend: String

        func run() async throws {
            let jid = try await chat.withClient(presence: true) { client in
                try await Task.sleep(for: .milliseconds(300))
                let jid = try await ChatLoginOptions.friend(friend, of: client)
                guard await client.incomingRequests.contains(jid) else { throw XMPPError.noSuchRequest(jid) }
                try await client.reject(jid)
                return jid
            }
            print("Declined the request from \(jid).")
        }
    }
}
