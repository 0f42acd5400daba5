import Foundation
import Testing

@testable import KinshipXMPP

@Suite("Roster model")
struct RosterModelTests {
    let grace = JID("grace@example.com")!
    let alan = JID("alan@example.com")!

    @Test("items are de-duplicated by bare JID; a push replaces, remove removes; versions follow")
    func pushes() {
        var roster = Roster(
            items: [RosterItem(jid: grace, name: "G"), RosterItem(jid: JID("grace@example.com/phone")!, name: "Grace")],
            version: "1"
        )
        #expect(roster.items.count == 1)
        #expect(roster[grace]?.name == "Grace")
        let before = roster.apply(push: RosterItem(jid: grace, name: "Grace H", subscription: .both), version: "2")
        #expect(before?.name == "Grace")
        #expect(roster[grace]?.subscription == .both)
        #expect(roster.version == "2")
        roster.apply(push: RosterItem(jid: grace, subscription: .remove), version: "3")
        #expect(roster[grace] == nil)
        #expect(roster.version == "3")
    }

    @Test("a full result replaces the items; an answer without a version keeps the old one")
    func results() {
        var roster = Roster(items: [RosterItem(jid: grace, subscription: .both)], version: "7")
        roster.replace(with: [RosterItem(jid: alan, subscription: .none, isAwaitingApproval: true)], version: nil)
        #expect(roster.items.keys.sorted { $0.description < $1.description } == [alan])
        #expect(roster.version == nil, "a full roster without a version clears the stored one")
        #expect(roster.outgoingRequests.map(\.jid) == [alan])
        #expect(roster.friends.isEmpty)
    }

    @Test("items read from XML: subscription, ask, approval, groups; items without a JID are dropped")
    func parsing() {
        var element = XMLElement(
            "item",
            namespace: "jabber:iq:roster",
            ["jid": "Zhang@Example.com", "name": "张伟", "subscription": "from", "ask": "subscribe", "approved": "true"]
        )
        element.append(XMLElement("group", namespace: "jabber:iq:roster", children: [.text("Team")]))
        let item = RosterItem(element)
        #expect(
            item
                == RosterItem(
                    jid: JID("zhang@example.com")!,
                    name: "张伟",
                    groups: ["Team"],
                    subscription: .from,
                    isAwaitingApproval: true,
                    isPreApproved: true
                )
        )
        #expect(item?.isFriend == true)
        #expect(RosterItem(XMLElement("item", namespace: "jabber:iq:roster", ["name": "no jid"])) == nil)
        #expect(
            RosterItem(XMLElement("item", namespace: "jabber:iq:roster", ["jid": "a@b", "subscription": "weird"]))?.subscription
                == Optional.some(.none)
        )
    }

    @Test("presence that arrives before the roster is kept; availability follows every resource")
    func presenceBook() {
        var book = PresenceBook()
        #expect(book.availability(of: grace) == .offline)
        let phoneAway = book.record(Presence(from: JID("grace@example.com/phone"), show: .away))
        #expect(phoneAway)
        #expect(book.availability(of: grace) == .away)
        let laptopOnline = book.record(Presence(from: JID("grace@example.com/laptop")))
        #expect(laptopOnline)
        #expect(book.availability(of: grace) == .available)
        let laptopGone = book.record(Presence(kind: .unavailable, from: JID("grace@example.com/laptop")))
        #expect(laptopGone)
        #expect(book.availability(of: grace) == .away)
        let request = book.record(Presence(kind: .subscribe, from: grace))
        #expect(!request, "requests are not availability")
        let allGone = book.record(Presence(kind: .unavailable, from: grace))
        #expect(allGone)
        #expect(book.availability(of: grace) == .offline)
        let photo = XMLElement(
            "x",
            namespace: "vcard-temp:x:update",
            children: [.element(XMLElement("photo", namespace: "vcard-temp:x:update", children: [.text("abc")]))]
        )
        book.record(Presence(from: JID("alan@example.com/pc"), extensions: [photo]))
        #expect(book.photoHash(of: alan) == "abc")
    }

    @Test("a file roster store round-trips, and a corrupt file is reported and treated as none")
    func fileStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-roster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let problems = ProblemLog()
        let store = FileRosterStore(folder: folder) { problems.add($0) }
        let roster = Roster(items: [RosterItem(jid: grace, name: "Grace", groups: ["Navy"], subscription: .both)], version: "42")
        try await store.save(roster, for: JID("ada@example.com/laptop")!)
        #expect(try await store.load(for: JID("ada@example.com")!) == roster)
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent(file))
        #expect(try await store.load(for: JID("ada@example.com")!) == nil)
        #expect(problems.messages.count == 1)
    }

    @Test("reconnect pauses double up to the maximum, with jitter")
    func reconnectDelays() {
        let policy = ReconnectPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(10))
        #expect((.milliseconds(750)...(.seconds(1))).contains(policy.delay(before: 1)))
        #expect((.seconds(3)...(.seconds(4))).contains(policy.delay(before: 3)))
        #expect((.milliseconds(7500)...(.seconds(10))).contains(policy.delay(before: 30)))
    }
}

/// Problems a store reported.
final class ProblemLog: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []

    func add(_ message: String) { lock.withLock { list.append(message) } }
    var messages: [String] { lock.withLock { list } }
}
