import KinshipXMPP
import Testing

@Suite("JIDs and stanzas")
struct StanzaTests {
    @Test("JIDs parse, normalise and refuse what RFC 7622 forbids")
    func jids() throws {
        let full = try #require(JID("Ada@Example.COM/Laptop"))
        #expect(full.local == "ada" && full.domain == "example.com" && full.resource == "Laptop")
        #expect(full.bare.description == "ada@example.com")
        #expect(full.bare == JID("ada@example.com."))
        #expect(JID("example.com")?.local == nil)
        #expect(JID("a@b/c/d")?.resource == "c/d")
        for bad in [
            "", "@example.com", "ada@", "ada@example.com/", "a b@example.com", "a<b@example.com", "ada@exa mple.com",
            "ada@example..com", "ada@.example.com", "ada@example.com..", "\u{FFFD}\u{FFFD}..",
        ] {
            #expect(JID(bad) == nil, "\(bad)")
        }
    }

    @Test("an address written out reads back the same (found by fuzzing: \"a..\" became \"a.\", then \"a\")")
    func jidRoundTrip() throws {
        for text in ["Ada@Example.COM/Laptop", "example.com.", "张伟@例子.中国/电话", "a@b/c/d", "user@[::1]"] {
            let jid = try #require(JID(text))
            #expect(JID(jid.description) == jid, "\(text)")
        }
    }

    @Test("an IQ, a presence and a message read back what they write")
    func roundTrips() throws {
        let iq = IQ(
            kind: .set,
            id: "r1",
            to: JID("ada@example.com"),
            payload: XMLElement(
                "query",
                namespace: "jabber:iq:roster",
                children: [.element(XMLElement("item", namespace: "jabber:iq:roster", ["jid": "b@example.com"]))]
            )
        )
        #expect(IQ(iq.element) == iq)
        let failed = iq.error(StanzaError(kind: .cancel, condition: "item-not-found", text: "no such contact"))
        #expect(IQ(failed.element)?.error == StanzaError(kind: .cancel, condition: "item-not-found", text: "no such contact"))
        let photo = XMLElement(
            "x",
            namespace: "vcard-temp:x:update",
            children: [.element(XMLElement("photo", namespace: "vcard-temp:x:update", children: [.text("abc123")]))]
        )
        let presence = Presence(from: JID("ada@example.com/pc"), show: .away, status: "Lunch", priority: 5, extensions: [photo])
        #expect(Presence(presence.element) == presence)
        #expect(Presence(Presence(kind: .subscribe, to: JID("b@example.com")).element).kind == .subscribe)
        let message = Message(kind: .chat, id: "m1", to: JID("b@example.com"), body: "Hello <b> & ok", thread: "t")
        #expect(Message(message.element) == message)
    }

    @Test("stanzas come out of the stream parser typed; odd values are clamped or refused")
    func fromTheStream() throws {
        let events = try parse(
            header + """
                <presence from='b@example.com/x'><priority>500</priority><show>nonsense</show></presence>\
                <iq type='get'/><iq type='result' id='1'/><stream:features/></stream:stream>
                """
        )
        let stanzas = events.compactMap { event -> Stanza? in
            if case .stanza(let element) = event { Stanza(element) } else { nil }
        }
        #expect(stanzas.count == 2, "an iq without id and stream features are not stanzas")
        guard case .presence(let presence) = stanzas.first else {
            Issue.record("no presence")
            return
        }
        #expect(presence.priority == 127)
        #expect(presence.show == nil)
        #expect(presence.from == JID("b@example.com/x"))
    }
}
