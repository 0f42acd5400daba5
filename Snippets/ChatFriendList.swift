// Connect to a chat server and follow the friend list: roster, requests, presence, vCards.

// snippet.hide
import Foundation
import KinshipContacts
import KinshipXMPP

// snippet.show
// snippet.connect
let configuration = XMPPConfiguration(
    jid: JID("ada@chat.example.com")!,
    password: "correct horse battery staple"
)
var options = XMPPClient.Options()
options.reconnect = ReconnectPolicy()  // Come back after a dropped connection.
let client = XMPPClient(configuration: configuration, options: options)
try await client.connect()
// snippet.end

// snippet.events
for await event in client.events {
    switch event {
    case .rosterPopulationEnded(let count, let fromCache):
        print("\(count) contacts\(fromCache ? " (unchanged since last time)" : "")")
        let list = await client.contactList(sortOrder: .firstName)
        for section in list.sections {
            print(section.title, section.contacts.map { "\($0.name) (\($0.availability.rawValue))" })
        }
    case .subscriptionRequest(let from):
        // A friend request: accept it and ask back, so the friendship goes both ways.
        try await client.accept(from)
    case .availabilityChanged(let jid, let availability):
        print("\(jid) is \(availability.rawValue)")
    case .vCardUpdated(let jid):
        let card = try await client.vCard(of: jid)
        print("\(card.fullName ?? jid.description) has a new photo")
    case .message(let message):
        print("\(message.from?.bare.description ?? "?"): \(message.body ?? "")")
    case .disconnected(let error):
        print("Disconnected: \(error.map(String.init(describing:)) ?? "by the app")")
    default:
        break
    }
}
// snippet.end

// snippet.requests
let grace = JID("grace@chat.example.com")!
try await client.add(grace, name: "Grace Hopper")  // Sends a friend request.
try await client.send(message: "Hello!", to: grace)
// snippet.end
