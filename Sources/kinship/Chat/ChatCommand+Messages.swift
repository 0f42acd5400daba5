import ArgumentParser
import Foundation
import KinshipXMPP

extension ChatCommand {
    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a message to a friend; a friend who is offline gets it when they come back."
        )
        @OptionGroup var chat: ChatLoginOptions
        @Argument(help: "The friend: a name (or a search that matches one person), a user id or a chat address.") var friend: String
        @Argument(help: "The message.") var text: String

        func run() async throws {
            let name = try await chat.withClient(presence: false) { client in
                let jid = try await ChatLoginOptions.friend(friend, of: client)
                try await client.send(message: text, to: jid)
                return await client.roster[jid]?.name ?? jid.description
            }
            print("Sent to \(name).")
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read your conversation with a friend from the chat server's archive, oldest first."
        )
        @OptionGroup var chat: ChatLoginOptions
        @Argument(help: "The friend: a name (or a search that matches one person), a user id or a chat address.") var friend: String
        @Option(help: ArgumentHelp("How many of the latest messages to show.", valueName: "n")) var limit: Int = 20

        func validate() throws {
            guard (1...500).contains(limit) else { throw ValidationError("--limit must be between 1 and 500.") }
        }

        func run() async throws {
            let (me, name, messages) = try await chat.withClient(presence: false) { client in
                let jid = try await ChatLoginOptions.friend(friend, of: client)
                let name = await client.roster[jid]?.name ?? jid.description
                return (await client.boundJID?.bare, name, try await client.history(with: jid, limit: limit))
            }
            if messages.isEmpty { print("No messages with \(name) yet.") }
            let format = Date.FormatStyle(date: .numeric, time: .shortened)
            for message in messages {
                let who = message.from?.bare == me ? "You" : name
                print("[\(message.date.map { $0.formatted(format) } ?? "?")] \(who): \(message.body)")
            }
        }
    }

    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show messages, friends coming and going, and friend requests as they arrive, until Ctrl-C.",
            discussion: """
                Messages kept for you while you were offline come first. A lost connection is made again. --count stops \
                after that many messages.
                """
        )
        @OptionGroup var chat: ChatLoginOptions
        @Option(help: ArgumentHelp("Stop after this many messages.", valueName: "n")) var count: Int?

        func run() async throws {
            try await chat.withClient(presence: true, reconnecting: true) { client in
                print("Listening as \(await client.boundJID?.bare.description ?? "?"); Ctrl-C stops.")
                fflush(nil)
                var messages = 0
                for await event in client.events {
                    guard let line = await Self.line(for: event, client) else { continue }
                    print(line)
                    fflush(nil)
                    if case .message = event {
                        messages += 1
                        if let count, messages >= count { return }
                    }
                }
            }
        }

        /// What an event says to the person, or nil for the ones that say nothing new.
        static func line(for event: XMPPClientEvent, _ client: XMPPClient) async -> String? {
            func name(_ jid: JID?) async -> String {
                guard let jid else { return "someone" }
                return await client.roster[jid.bare]?.name ?? jid.bare.description
            }
            switch event {
            case .message(let message):
                return "\(await name(message.from)): \(message.body ?? "")"
            case .availabilityChanged(let jid, let availability):
                return "\(await name(jid)) is \(availability.rawValue)."
            case .subscriptionRequest(let jid):
                return "\(await name(jid)) wants to be friends — `kinship chat accept \(jid.local ?? jid.description)`."
            case .rosterPushed(let item) where item.subscription == .both:
                return "You and \(item.name ?? item.jid.description) are friends."
            case .rosterRemoved(let jid):
                return "\(jid) is no longer on your friend list."
            case .disconnected(let error?):
                return "Disconnected: \(error)"
            case .reconnecting(let attempt, let delay):
                return "Connecting again (attempt \(attempt), in \(delay.components.seconds) s)…"
            case .connected:
                return "Connected."
            default:
                return nil
            }
        }
    }
}
