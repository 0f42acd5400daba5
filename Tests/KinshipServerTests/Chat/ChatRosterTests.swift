import Crypto
import Foundation
import HTTPTypes
import KinshipCore
import Logging
import Testing

@testable import KinshipServer

/// The roster calls of Prosody's mod_roster_kinship: rosters read from the friend list,
/// subscriptions from chat clients applied to it, and the change log the module follows (the
/// module itself is tested against a real Prosody in scripts/e2e/chat_roster.py).
@Suite("Chat rosters", .timeLimit(.minutes(3)))
struct ChatRosterTests {
    /// Calls a chat server route with the shared secret; the status and the answer.
    static func call(_ server: LiveServer, _ path: String, _ form: FormParameters) async throws -> (HTTPResponse.Status, [String: Any]) {
        let shared = ChatServerConfiguration.sharedSecret(from: server.configuration.secret)
        return try await server.postForm(path, form, headers: [.authorization: "Bearer " + shared])
    }

    /// `user`'s roster as (contact id → standing, name).
    static func roster(_ server: LiveServer, of user: String) async throws -> [String: [String]] {
        let (status, answer) = try await call(server, "/chat/roster", ["user": user])
        #expect(status == .ok)
        var items: [String: [String]] = [:]
        for item in answer["items"] as? [[String: Any]] ?? [] {
            items[item["user"] as? String ?? ""] = [item["standing"] as? String ?? "", item["name"] as? String ?? ""]
        }
        return items
    }

    static func subscribe(_ server: LiveServer, _ kind: String, from user: String, about contact: String) async throws -> HTTPResponse.Status {
        try await call(server, "/chat/subscription", ["user": user, "contact": contact, "type": kind]).0
    }

    @Test("a roster is the friend list: friends, requests sent, requests waiting, with profile names", arguments: TestEngine.enabled)
    func rosterIsTheFriendList(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "林伟", email: "lin@example.com", username: "lin")
            let bo = try await server.makeUser(name: "Bo Diddley", email: "bo@example.com", username: "bodiddley")
            let cy = try await server.makeUser(name: "Cy Young", email: "cy@example.com", username: "cyyoung")
            _ = try await server.makeUser(name: "Stranger", email: "stranger@example.com", username: "stranger")
            try await server.platform.friends.befriend(ada.id, lin.id)
            _ = try await server.platform.friends.sendRequest(from: ada.id, to: bo.id)
            _ = try await server.platform.friends.sendRequest(from: cy.id, to: ada.id)

            #expect(
                try await Self.roster(server, of: ada.id) == [
                    lin.id: ["friend", "林伟"], bo.id: ["asked", "Bo Diddley"], cy.id: ["asking", "Cy Young"],
                ]
            )
            #expect(try await Self.roster(server, of: bo.id) == [ada.id: ["asking", "Ada Lovelace"]])
            #expect(try await Self.call(server, "/chat/roster", ["user": "no-such-person"]).0 == .notFound)
            #expect(try await Self.call(server, "/chat/roster", [:]).0 == .badRequest)
            let stranger = try await server.postForm("/chat/roster", ["user": ada.id], headers: [.authorization: "Bearer wrong"])
            #expect(stranger.0 == .unauthorized, "only the chat server may read rosters")
        }
    }

    @Test("subscriptions a chat client sends become requests, acceptances, declines and unfriendings", arguments: TestEngine.enabled)
    func subscriptions(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let friends = server.platform.friends

            #expect(try await Self.subscribe(server, "subscribe", from: ada.id, about: lin.id) == .ok)
            #expect(try await friends.incomingRequests(for: lin.id).map(\.fromUserID) == [ada.id])
            #expect(try await Self.subscribe(server, "subscribed", from: lin.id, about: ada.id) == .ok)
            #expect(try await friends.areFriends(ada.id, lin.id))
            #expect(try await Self.subscribe(server, "subscribed", from: lin.id, about: ada.id) == .ok, "nothing to approve: ignored")
            #expect(try await Self.subscribe(server, "unsubscribe", from: ada.id, about: lin.id) == .ok)
            #expect(try await !friends.areFriends(ada.id, lin.id))

            #expect(try await Self.subscribe(server, "subscribe", from: lin.id, about: ada.id) == .ok)
            #expect(try await Self.subscribe(server, "unsubscribed", from: ada.id, about: lin.id) == .ok, "declined")
            #expect(try await friends.incomingRequests(for: ada.id).isEmpty)
            #expect(try await Self.subscribe(server, "subscribe", from: lin.id, about: ada.id) == .ok)
            #expect(try await Self.subscribe(server, "unsubscribe", from: lin.id, about: ada.id) == .ok, "withdrawn")
            #expect(try await friends.incomingRequests(for: ada.id).isEmpty)
            #expect(try await Self.subscribe(server, "subscribe", from: lin.id, about: ada.id) == .ok)
            #expect(try await Self.subscribe(server, "subscribe", from: ada.id, about: lin.id) == .ok, "asking back accepts")
            #expect(try await friends.areFriends(ada.id, lin.id))
            #expect(try await Self.subscribe(server, "remove", from: lin.id, about: ada.id) == .ok)
            #expect(try await !friends.areFriends(ada.id, lin.id))

            let unknown = try await Self.call(server, "/chat/subscription", ["user": ada.id, "contact": "nobody", "type": "subscribe"])
            #expect(unknown.0 == .notFound && (unknown.1["reason"] as? String)?.contains("not a Kinship person") == true)
            #expect(try await Self.subscribe(server, "subscribe", from: ada.id, about: ada.id) == .badRequest)
            #expect(try await Self.subscribe(server, "probe", from: ada.id, about: lin.id) == .badRequest)
        }
    }

    @Test("many people subscribing and approving at once all end up friends, each change logged once", arguments: TestEngine.enabled)
    func concurrentSubscriptions(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            var people: [String] = []
            for index in 0..<12 {
                people.append(try await server.makeUser(name: "Person \(index)", email: "p\(index)@example.com", username: "person\(index)").id)
            }
            let start = try #require(try await Self.call(server, "/chat/roster/changes", ["since": "-1"]).1["cursor"] as? Int)
            let changes = ChatRosterChanges(database: server.platform.database)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for person in people {
                    group.addTask { try await ChatSubscription.subscribe.apply(from: person, about: ada.id, to: server.platform.friends) }
                }
                try await group.waitForAll()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for person in people {
                    group.addTask { try await ChatSubscription.subscribed.apply(from: ada.id, about: person, to: server.platform.friends) }
                }
                try await group.waitForAll()
            }
            #expect(Set(try await server.platform.friends.friendIDs(of: ada.id)) == Set(people))
            let page = try await changes.changes(after: start)
            #expect(page.cursor == start + 4 * people.count, "two entries per request and two per acceptance, none lost or doubled")
            #expect(Set(page.userIDs) == Set(people + [ada.id]) && page.userIDs.count == people.count + 1)
        }
    }

    @Test("a change poll answers as soon as another process changes a friend list", arguments: TestEngine.enabled)
    func longPoll(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let cursor = try #require(try await Self.call(server, "/chat/roster/changes", ["since": "-1"]).1["cursor"] as? Int)
            let quiet = ContinuousClock.now
            let nothing = try await Self.call(server, "/chat/roster/changes", ["since": "\(cursor)", "wait": "0.3"]).1
            #expect(ContinuousClock.now - quiet >= .milliseconds(300) && (nothing["users"] as? [String]) == [])

            let other = try await Platform.open(server.platform.database.location, bcryptCost: 4, clock: server.clock, logger: Logger(label: "other"))
            let change = Task {
                try await Task.sleep(for: .milliseconds(300))
                _ = try await other.friends.sendRequest(from: ada.id, to: lin.id)
                return ContinuousClock.now
            }
            let (status, answer) = try await Self.call(server, "/chat/roster/changes", ["since": "\(cursor)", "wait": "20"])
            let answered = ContinuousClock.now
            let changed = try await change.value
            await other.close()
            #expect(status == .ok)
            #expect(Set(answer["users"] as? [String] ?? []) == [ada.id, lin.id])
            #expect(answered - changed < .seconds(1), "answered \(answered - changed) after the change")
            let next = try #require(answer["cursor"] as? Int)
            #expect(next == cursor + 2)
            #expect(
                try await Self.call(server, "/chat/roster/changes", ["since": "\(next + 50)"]).1["start_over"] as? Bool == true,
                "a cursor from another log starts over"
            )
            #expect(try await Self.call(server, "/chat/roster/changes", ["since": "soon"]).0 == .badRequest)
        }
    }

    @Test("GET /chat/server says where the chat server is, when there is one")
    func location() async throws {
        try await withLiveServer(.sqlite) { server in
            let (status, _) = try await server.getJSON("/chat/server")
            #expect(status == .notFound)
        }
        let location = ChatServerLocation(domain: "chat.example.com", host: "xmpp.example.com", port: 5223)
        try await withLiveServer(.sqlite, configure: { $0.chatServer = location }) { server in
            let (status, answer) = try await server.getJSON("/chat/server")
            #expect(status == .ok)
            #expect(answer["domain"] as? String == "chat.example.com" && answer["host"] as? String == "xmpp.example.com")
            #expect(answer["port"] as? Int == 5223 && answer["certificate"] == nil)
        }
    }

    @Test("a vCard is the profile: names, the picture and its SHA-1 for presence", arguments: TestEngine.enabled)
    func vCard(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let lin = try await server.makeUser(name: "林伟", email: "lin@example.com", username: "lin")
            _ = try await server.platform.users.update(lin.id, with: ProfileChanges(name: "林伟", firstName: "伟", lastName: "林"))
            let (status, card) = try await Self.call(server, "/chat/vcard", ["user": lin.id])
            #expect(status == .ok)
            #expect(card["name"] as? String == "林伟" && card["first_name"] as? String == "伟" && card["last_name"] as? String == "林")
            let photo = try #require((card["photo"] as? String).flatMap { Data(base64Encoded: $0) })
            #expect(card["photo_type"] as? String == "image/png" && photo.starts(with: [0x89, 0x50, 0x4E, 0x47]))
            let hash = Insecure.SHA1.hash(data: photo).map { String(format: "%02x", $0) }.joined()
            #expect(card["photo_hash"] as? String == hash)
            #expect(try await Self.call(server, "/chat/vcard", ["user": "nobody"]).0 == .notFound)
            #expect(try await server.postForm("/chat/vcard", ["user": lin.id]).0 == .unauthorized)
        }
    }

    @Test("renaming and deleting a person change the rosters they are on; old entries go", arguments: TestEngine.enabled)
    func renameDeleteAndPrune(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let bo = try await server.makeUser(name: "Bo Diddley", email: "bo@example.com", username: "bodiddley")
            let cy = try await server.makeUser(name: "Cy Young", email: "cy@example.com", username: "cyyoung")
            try await server.platform.friends.befriend(ada.id, lin.id)
            _ = try await server.platform.friends.sendRequest(from: bo.id, to: ada.id)
            let changes = ChatRosterChanges(database: server.platform.database)
            var cursor = try await changes.changes(after: -1).cursor

            _ = try await server.platform.users.update(ada.id, with: ProfileChanges(name: "Ada King", findableByEmail: true))
            var page = try await changes.changes(after: cursor)
            #expect(Set(page.userIDs) == [lin.id, bo.id], "the people whose rosters show her name")
            cursor = page.cursor
            _ = try await server.platform.users.update(ada.id, with: ProfileChanges(name: "Ada King", location: "London", findableByEmail: true))
            #expect(try await changes.changes(after: cursor).userIDs.isEmpty, "the same name changes no roster")

            _ = try await server.platform.users.delete(ada)
            page = try await changes.changes(after: cursor)
            #expect(Set(page.userIDs) == [lin.id, bo.id])
            #expect(try await Self.roster(server, of: lin.id).isEmpty)

            server.clock.advance(by: ChatRosterChanges.keptSeconds + 1)
            try await server.platform.friends.befriend(lin.id, cy.id)
            #expect(try await changes.changes(after: cursor).startOver, "a reader behind what is kept starts over")
            #expect(try await changes.changes(after: 0).startOver)
        }
    }
}
