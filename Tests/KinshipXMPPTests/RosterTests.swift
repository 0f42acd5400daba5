import Foundation
import KinshipContacts
import KinshipXMPP
import Testing

/// Collects a client's events as they come, for tests to wait on.
actor EventLog {
    private(set) var events: [XMPPClientEvent] = []

    init(_ client: XMPPClient) {
        let stream = client.events
        Task { [weak self] in
            for await event in stream { await self?.append(event) }
        }
    }

    private func append(_ event: XMPPClientEvent) { events.append(event) }

    /// Waits (up to 10 s) until an event matches.
    func wait(for what: String, _ matches: @Sendable (XMPPClientEvent) -> Bool) async throws -> XMPPClientEvent {
        for _ in 0..<200 {
            if let found = events.first(where: matches) { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw EventLogError.timedOut(what, events)
    }
}

enum EventLogError: Error {
    case timedOut(String, [XMPPClientEvent])
}

@Suite("Roster, presence and vCards against a real Prosody", .enabled(if: ProsodyTestServer.isWanted), .needsProsody, .timeLimit(.minutes(3)))
struct RosterTests {
    private func client(_ jid: JID, store: any RosterStore = MemoryRosterStore()) -> XMPPClient {
        var options = XMPPClient.Options()
        options.rosterStore = store
        return XMPPClient(configuration: ProsodyTestServer.configuration(jid), options: options)
    }

    @Test("a seeded roster: friends are both/to/from, pending requests in and out sit in their own section")
    func sectionsAndRequests() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let domain = ProsodyTestServer.domain
        let jid = { @Sendable (name: String) in JID("\(name)@\(domain)")! }
        try ProsodyTestServer.seedRoster(
            of: ada,
            items: [
                SeededItem(jid: jid("grace"), name: "Grace Hopper", subscription: "both", groups: ["Navy"]),
                SeededItem(jid: jid("zhang"), name: "张伟", subscription: "to"),
                SeededItem(jid: jid("emile"), name: "Émile Zola", subscription: "from"),
                SeededItem(jid: jid("alan"), name: "Alan Turing", subscription: "none", ask: true),
                SeededItem(jid: jid("stranger"), name: "Nobody", subscription: "none"),
            ],
            pendingIn: [jid("linus")]
        )
        let client = client(ada)
        let log = EventLog(client)
        try await client.connect()
        _ = try await log.wait(for: "the incoming request") { $0 == .subscriptionRequest(from: jid("linus")) }

        let roster = await client.roster
        #expect(Set(roster.friends.map(\.jid)) == [jid("grace"), jid("zhang"), jid("emile")])
        #expect(roster.outgoingRequests.map(\.jid) == [jid("alan")])
        #expect(roster[jid("grace")]?.groups == ["Navy"])
        let list = await client.contactList()
        #expect(list.sections.first?.title == XMPPClient.requestsSection)
        #expect(Set(list.sections.first?.contacts.map(\.id) ?? []) == [jid("alan").description, jid("linus").description])
        #expect(list.sections.dropFirst().map(\.title) == ["E", "G", "Z"], "张伟 without structured names files under its family name")
        #expect(!list.contacts.contains { $0.name == "Nobody" }, "no subscription and no request: not a friend")
        var searched = list
        searched.searchText = "zw"
        #expect(searched.sections.flatMap(\.contacts).map(\.name) == ["张伟"], "pinyin initials find 张伟")
        #expect(list.contacts.first { $0.name == "Grace Hopper" }?.availability == .offline)
        let events = await log.events
        let began = try #require(events.firstIndex(of: .rosterPopulationBegan))
        let ended = try #require(events.firstIndex(of: .rosterPopulationEnded(count: 5, fromCache: false)))
        #expect(events[began..<ended].filter { if case .rosterItem = $0 { true } else { false } }.count == 5)
        await client.disconnect()
    }

    @Test("roster versioning: the second login gets an empty result and keeps the stored roster")
    func versioning() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let friend = JID("grace@\(ProsodyTestServer.domain)")!
        try ProsodyTestServer.seedRoster(of: ada, items: [SeededItem(jid: friend, name: "Grace", subscription: "both")])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-roster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }

        let first = client(ada, store: FileRosterStore(folder: folder))
        let firstLog = EventLog(first)
        try await first.connect()
        _ = try await firstLog.wait(for: "a full population") { $0 == .rosterPopulationEnded(count: 1, fromCache: false) }
        await first.disconnect()

        let second = client(ada, store: FileRosterStore(folder: folder))
        let secondLog = EventLog(second)
        try await second.connect()
        _ = try await secondLog.wait(for: "a population from the cache") { $0 == .rosterPopulationEnded(count: 1, fromCache: true) }
        #expect(await second.roster[friend]?.name == "Grace")
        await second.disconnect()
    }

    @Test("a friend request between two clients: request, accept, both; then remove")
    func requestCycle() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let bob = try await ProsodyTestServer.register("bob")
        let adaClient = client(ada)
        let bobClient = client(bob)
        let adaLog = EventLog(adaClient)
        let bobLog = EventLog(bobClient)
        try await adaClient.connect()
        try await bobClient.connect()

        try await adaClient.add(bob, name: "Bob")
        _ = try await bobLog.wait(for: "Bob sees the request") { $0 == .subscriptionRequest(from: ada) }
        #expect(await bobClient.contactList().sections.first?.contacts.first?.payload["request"] == "incoming")
        try await bobClient.accept(ada)
        _ = try await adaLog.wait(for: "Bob asks back") { $0 == .subscriptionRequest(from: bob) }
        try await adaClient.accept(bob, subscribeBack: false)
        _ = try await adaLog.wait(for: "Ada's item becomes both") { event in
            if case .rosterPushed(let item) = event { item.jid == bob && item.subscription == .both } else { false }
        }
        _ = try await bobLog.wait(for: "Bob's item becomes both") { event in
            if case .rosterPushed(let item) = event { item.jid == ada && item.subscription == .both } else { false }
        }
        _ = try await adaLog.wait(for: "Ada sees Bob online") { $0 == .availabilityChanged(bob, .available) }

        try await bobClient.setPresence(show: .away, status: "Lunch")
        _ = try await adaLog.wait(for: "Ada sees Bob away") { $0 == .availabilityChanged(bob, .away) }
        await bobClient.disconnect()
        _ = try await adaLog.wait(for: "Ada sees Bob offline") { $0 == .availabilityChanged(bob, .offline) }

        try await adaClient.remove(bob)
        _ = try await adaLog.wait(for: "Bob is removed") { $0 == .rosterRemoved(bob) }
        #expect(await adaClient.roster[bob] == nil)
        await adaClient.disconnect()
    }

    @Test("a friend request cycle driven from the other side by slixmpp: request arrives, accept, both, remove, gone")
    func cycleWithSlixmpp() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let peerJID = try await ProsodyTestServer.register("peer")
        let adaClient = client(ada)
        let log = EventLog(adaClient)
        try await adaClient.connect()
        let peer = try SlixmppPeer(jid: peerJID)
        defer { peer.stop() }
        try await peer.wait(for: "ready")

        peer.send("add \(ada)")
        _ = try await log.wait(for: "the request from slixmpp") { $0 == .subscriptionRequest(from: peerJID) }
        #expect(await adaClient.contactList().sections.first?.title == XMPPClient.requestsSection)
        try await adaClient.accept(peerJID, subscribeBack: true)
        try await peer.wait(for: "subscribe \(ada)")
        peer.send("subscribed \(ada)")
        _ = try await log.wait(for: "both ways") { event in
            if case .rosterPushed(let item) = event { item.jid == peerJID && item.subscription == .both } else { false }
        }
        try await peer.wait(for: "roster \(ada) both -")
        let friends = await adaClient.contactList().sections.flatMap(\.contacts)
        #expect(friends.map(\.id) == [peerJID.description])
        #expect(friends.first?.pinnedSection == nil)

        try await adaClient.remove(peerJID)
        _ = try await log.wait(for: "removed") { $0 == .rosterRemoved(peerJID) }
        try await peer.wait(for: "roster \(ada) none -")
        #expect(await adaClient.contactList().count == 0)
        await adaClient.disconnect()
    }

    @Test("accepting someone who never asked says so and sends nothing; messages go both ways")
    func acceptWithoutRequestAndMessages() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let bob = try await ProsodyTestServer.register("bob")
        let adaClient = client(ada)
        let bobClient = client(bob)
        let adaLog = EventLog(adaClient)
        let bobLog = EventLog(bobClient)
        try await adaClient.connect()
        try await bobClient.connect()

        await #expect(throws: XMPPError.noSuchRequest(bob)) { try await adaClient.accept(bob, patience: .milliseconds(200)) }
        #expect(await adaClient.roster[bob] == nil, "no request of Ada's own went out")
        try await Task.sleep(for: .milliseconds(300))
        #expect(await bobLog.events.contains(.subscriptionRequest(from: ada)) == false)

        try await adaClient.send(message: "Hello Bob", to: bob)
        let received = try await bobLog.wait(for: "Ada's message") { event in
            if case .message(let message) = event { message.body == "Hello Bob" } else { false }
        }
        guard case .message(let message) = received else { return }
        #expect(message.from?.bare == ada && message.kind == .chat)
        #expect(await adaLog.events.contains { if case .message = $0 { true } else { false } } == false)
        for client in [adaClient, bobClient] { await client.disconnect() }
    }

    @Test("reject, cancel, pre-approval and auto-accept of known contacts")
    func answers() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let bob = try await ProsodyTestServer.register("bob")
        let carol = try await ProsodyTestServer.register("carol")
        var autoOptions = XMPPClient.Options()
        autoOptions.autoAcceptKnownContacts = true
        let adaClient = XMPPClient(configuration: ProsodyTestServer.configuration(ada), options: autoOptions)
        let bobClient = client(bob)
        let carolClient = client(carol)
        let adaLog = EventLog(adaClient)
        let bobLog = EventLog(bobClient)
        let carolLog = EventLog(carolClient)
        for client in [adaClient, bobClient, carolClient] { try await client.connect() }

        try await bobClient.add(carol)
        _ = try await carolLog.wait(for: "Bob's request") { $0 == .subscriptionRequest(from: bob) }
        try await carolClient.reject(bob)
        _ = try await bobLog.wait(for: "the refusal reaches Bob's roster") { event in
            if case .rosterPushed(let item) = event { item.jid == carol && item.subscription == .none && !item.isAwaitingApproval } else { false }
        }
        #expect(await carolClient.incomingRequests.isEmpty)

        try await bobClient.add(ada, name: "Ada")
        _ = try await bobLog.wait(for: "Bob's request pending") { event in
            if case .rosterPushed(let item) = event { item.jid == ada && item.isAwaitingApproval } else { false }
        }
        try await bobClient.cancelRequest(ada)
        _ = try await bobLog.wait(for: "the request withdrawn") { event in
            if case .rosterPushed(let item) = event { item.jid == ada && !item.isAwaitingApproval } else { false }
        }

        try await adaClient.preApprove(carol)
        try await carolClient.add(ada)
        _ = try await carolLog.wait(for: "pre-approved: Carol sees Ada at once") { event in
            if case .rosterPushed(let item) = event { item.jid == ada && item.subscription == .to } else { false }
        }

        try await adaClient.add(bob)
        _ = try await bobLog.wait(for: "Ada asks Bob") { $0 == .subscriptionRequest(from: ada) }
        try await bobClient.accept(ada, subscribeBack: true)
        _ = try await adaLog.wait(for: "Ada's client accepts Bob by itself: he is on her roster") { event in
            if case .rosterPushed(let item) = event { item.jid == bob && item.subscription == .both } else { false }
        }
        let raised = await adaLog.events.filter { $0 == .subscriptionRequest(from: bob) }
        #expect(raised.count == 1, "only the request Bob withdrew was raised; once he is on her roster his request is answered")
        #expect(await adaClient.incomingRequests.isEmpty, "the withdrawn request is gone too")
        for client in [adaClient, bobClient, carolClient] { await client.disconnect() }
    }

    @Test("a new photo hash in a contact's presence refetches a cached vCard")
    func photoRefetch() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let bob = try await ProsodyTestServer.register("bob")
        let adaClient = client(ada)
        let bobClient = client(bob)
        let adaLog = EventLog(adaClient)
        try await adaClient.connect()
        try await bobClient.connect()
        try await adaClient.add(bob)
        try await bobClient.accept(ada, subscribeBack: false)
        _ = try await adaLog.wait(for: "Ada sees Bob") { $0 == .availabilityChanged(bob, .available) }
        let first = VCard(fullName: "Bob", photo: VCard.Photo(type: "image/png", data: Data([1, 2, 3])))
        try await bobClient.updateOwnVCard(first)
        #expect(try await adaClient.vCard(of: bob) == first)

        let second = VCard(fullName: "Bob", photo: VCard.Photo(type: "image/png", data: Data([4, 5, 6])))
        try await bobClient.updateOwnVCard(second)
        let update = XMLElement(
            "x",
            namespace: "vcard-temp:x:update",
            children: [.element(XMLElement("photo", namespace: "vcard-temp:x:update", children: [.text(second.photo!.hash)]))]
        )
        try await bobClient.send(.presence(Presence(extensions: [update])))
        _ = try await adaLog.wait(for: "the refetch") { $0 == .vCardUpdated(bob) }
        #expect(try await adaClient.vCard(of: bob) == second)
        #expect(await adaClient.vCardRequestsSent == 2)
        await adaClient.disconnect()
        await bobClient.disconnect()
    }

    @Test("the server stopped and started again with reconnect on: the list is intact after the re-sync")
    func reconnect() async throws {
        try await OwnProsody.with { own in
            let ada = try await own.server.register("ada")
            let grace = JID("grace@\(ProsodyTestServer.domain)")!
            try own.server.seedRoster(of: ada, items: [SeededItem(jid: grace, name: "Grace Hopper", subscription: "both")])
            var options = XMPPClient.Options()
            options.reconnect = ReconnectPolicy(initialDelay: .milliseconds(200), maximumDelay: .seconds(1), maximumAttempts: 40)
            let client = XMPPClient(configuration: own.server.configuration(ada), options: options)
            let log = EventLog(client)
            try await client.connect()
            _ = try await log.wait(for: "the first population") { $0 == .rosterPopulationEnded(count: 1, fromCache: false) }
            let before = await client.roster

            try await own.stop()
            _ = try await log.wait(for: "the drop") { $0 == .disconnected(.disconnected) }
            #expect(await client.roster == before, "a dropped connection does not wipe the roster")
            try await own.start()
            _ = try await log.wait(for: "the re-sync") { $0 == .rosterPopulationEnded(count: 1, fromCache: true) }
            #expect(await client.roster == before)
            #expect(await client.contactList().contacts.map(\.name) == ["Grace Hopper"])
            let connections = await log.events.filter { if case .connected = $0 { true } else { false } }
            #expect(connections.count == 2)
            await client.disconnect()
        }
    }

    @Test("a vCard is fetched once for several concurrent asks, and updates are read back")
    func vCards() async throws {
        let ada = try await ProsodyTestServer.register("ada")
        let bob = try await ProsodyTestServer.register("bob")
        let bobClient = client(bob)
        try await bobClient.connect()
        let card = VCard(
            fullName: "Bob Builder",
            nickname: "bob",
            givenName: "Bob",
            familyName: "Builder",
            photo: VCard.Photo(type: "image/png", data: Data([0x89, 0x50, 0x4E, 0x47]))
        )
        try await bobClient.updateOwnVCard(card)
        await bobClient.disconnect()

        let adaClient = client(ada)
        try await adaClient.connect()
        let cards = try await withThrowingTaskGroup(of: VCard.self) { group in
            for _ in 0..<5 { group.addTask { try await adaClient.vCard(of: bob) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(cards.count == 5)
        #expect(cards.allSatisfy { $0 == card })
        #expect(await adaClient.vCardRequestsSent == 1)
        _ = try await adaClient.vCard(of: bob)
        #expect(await adaClient.vCardRequestsSent == 1, "a fresh card comes from the cache")
        await adaClient.disconnect()
    }
}
