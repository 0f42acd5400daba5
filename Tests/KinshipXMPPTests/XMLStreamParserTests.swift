import KinshipXMPP
import Testing

/// Feeds `text` in chunks of the given sizes (cycled) and collects the events.
func parse(
    _ text: String,
    chunks: [Int] = [Int.max],
    limits: XMLStreamParser.Limits = .init()
) throws(XMLStreamError)
    -> [XMLStreamParser.Event]
{
    var parser = XMLStreamParser(limits: limits)
    let bytes = Array(text.utf8)
    var events: [XMLStreamParser.Event] = []
    var start = 0
    var chunk = 0
    while start < bytes.count {
        let end = min(bytes.count, start + max(1, chunks[chunk % chunks.count]))
        events += try parser.feed(bytes[start..<end])
        start = end
        chunk += 1
    }
    try parser.finish()
    return events
}

let header =
    "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' to='example.com' version='1.0'>"

let sampleStream =
    header + """
        <iq type='result' id='r1'><query xmlns='jabber:iq:roster' ver='v2'>\
        <item jid='zhang@example.com' name='张伟 &amp; co' subscription='both'><group>Friends</group></item>\
        <item jid='ada@example.com' name="Ada &quot;the first&quot;" subscription='none' ask='subscribe'/>\
        </query></iq>
        <message from='ada@example.com/pc' type='chat'><body>1 &lt; 2 &#x1F600; &#233;</body><![CDATA[<raw> & ]]></message>
         <presence/></stream:stream>
        """

@Suite("XML stream parser")
struct XMLStreamParserTests {
    @Test("a stream gives its header, each stanza with namespaces resolved, and its end")
    func stream() throws {
        let events = try parse(sampleStream)
        #expect(events.count == 5)
        guard case .streamOpened(let opened) = events[0] else {
            Issue.record("no header")
            return
        }
        #expect(opened.name == "stream")
        #expect(opened.namespace == "http://etherx.jabber.org/streams")
        #expect(opened[attribute: "to"] == "example.com")
        guard case .stanza(let iq) = events[1] else {
            Issue.record("no iq")
            return
        }
        #expect(iq.name == "iq" && iq.namespace == "jabber:client")
        let query = try #require(iq.child("query", namespace: "jabber:iq:roster"))
        #expect(query[attribute: "ver"] == "v2")
        let items = query.children("item")
        #expect(items.map { $0[attribute: "name"] } == ["张伟 & co", "Ada \"the first\""])
        #expect(items[0].child("group")?.text == "Friends")
        #expect(items[0].child("group")?.namespace == "jabber:iq:roster")
        guard case .stanza(let message) = events[2] else {
            Issue.record("no message")
            return
        }
        #expect(message.child("body")?.text == "1 < 2 😀 é")
        #expect(message.text == "<raw> & ")
        #expect(events[3] == .stanza(XMLElement("presence", namespace: "jabber:client")))
        #expect(events[4] == .streamClosed)
    }

    @Test("input split anywhere, even inside a UTF-8 sequence, gives the same events", arguments: [1, 2, 3, 5, 7, 13, 64])
    func splitting(size: Int) throws {
        #expect(try parse(sampleStream, chunks: [size]) == (try parse(sampleStream)))
        #expect(try parse(sampleStream, chunks: [size, 1, size * 3]) == (try parse(sampleStream)))
    }

    @Test(
        "XMPP's forbidden constructs are refused",
        arguments: [
            ("<!DOCTYPE lol [<!ENTITY lol 'lol'>]>" + header, "DTD"),
            (header + "<!-- hi --><presence/>", "comment"),
            (header + "<presence><?php echo 1 ?></presence>", "processing instruction"),
            (header + "<message><body>&lol;</body></message>", "entity"),
            (header + "<message to='&ext;'/>", "entity in attribute"),
            ("  <?xml version='1.0'?>" + header, "XML declaration after the start"),
        ]
    )
    func forbidden(input: String, what: String) {
        #expect(throws: XMLStreamError.self, "\(what)") { try parse(input) }
        do {
            _ = try parse(input)
        } catch {
            guard case .forbidden = error else {
                Issue.record("\(what): expected forbidden, got \(error)")
                return
            }
        }
    }

    @Test(
        "malformed input gets a clear error",
        arguments: [
            header + "<iq></message>",
            header + "<iq type=get/>",
            header + "<iq type='a' type='b'/>",
            header + "<iq type='a<b'/>",
            header + "hello<presence/>",
            header + "<message><body>a & b</body></message>",
            header + "<message><body>&#0;</body></message>",
            header + "<x:iq/>",
            header + "<presence/></stream:stream><presence/>",
            header + "<1iq/>",
            header + "<iq\u{01}/>",
            header + "<message><body>\u{07}</body></message>",
            "</stream:stream>",
        ]
    )
    func malformed(input: String) {
        #expect(throws: XMLStreamError.self) { try parse(input) }
    }

    @Test("bytes that are not UTF-8 are refused")
    func invalidUTF8() {
        var parser = XMLStreamParser()
        _ = try? parser.feed(Array(header.utf8))
        #expect(throws: XMLStreamError.invalidUTF8(offset: header.utf8.count + 15)) {
            try parser.feed(Array("<message><body>".utf8) + [0xC3, 0x28] + Array("</body></message>".utf8))
        }
    }

    @Test("a stream that ends inside a stanza is truncated; after an error everything is refused")
    func truncatedAndPoisoned() throws {
        var parser = XMLStreamParser()
        _ = try parser.feed(Array((header + "<message><body>hi").utf8))
        #expect(throws: XMLStreamError.truncated) { try parser.finish() }
        #expect(throws: XMLStreamError.truncated) { try parser.feed(Array("</body></message>".utf8)) }

        var complete = XMLStreamParser()
        _ = try complete.feed(Array((header + "<presence/>\n").utf8))
        try complete.finish()
    }

    @Test("limits on stanza size, depth, attributes and names hold, even for input that never closes")
    func limits() {
        let small = XMLStreamParser.Limits(maxStanzaBytes: 200, maxDepth: 4, maxAttributes: 4, maxNameBytes: 13)
        let cases: [(String, XMLStreamError.Limit)] = [
            (header + "<message><body>" + String(repeating: "a", count: 300) + "</body></message>", .stanzaBytes(200)),
            (header + "<a><b><c><d/></c></b></a>", .depth(4)),
            (header + "<iq a='1' b='2' c='3' d='4' e='5'/>", .attributes(4)),
            (header + "<averyveryverylongname/>", .nameLength(13)),
            (header + "<message><body>" + String(repeating: "a", count: 300), .stanzaBytes(200)),
            (header + "<message " + String(repeating: "a", count: 300), .stanzaBytes(200)),
        ]
        for (input, limit) in cases {
            do {
                _ = try parse(input, chunks: [50], limits: small)
                Issue.record("\(limit) not enforced")
            } catch {
                guard case .limitExceeded(let found, _) = error else {
                    Issue.record("expected \(limit), got \(error)")
                    continue
                }
                #expect(found == limit)
            }
        }
    }

    @Test("a serialized element parses back to itself")
    func serializationRoundTrip() throws {
        var item = XMLElement("item", namespace: "jabber:iq:roster", ["jid": "a@b.c", "name": "Tab\tand \"quotes\" & <>'"])
        item.append(XMLElement("group", namespace: "jabber:iq:roster", children: [.text("Friends & <family>")]))
        var iq = XMLElement("iq", namespace: "jabber:client", ["type": "set", "id": "x"])
        iq.append(XMLElement("query", namespace: "jabber:iq:roster", children: [.element(item)]))
        let events = try parse(header + iq.xmlString(parentNamespace: "jabber:client") + "</stream:stream>")
        #expect(events[1] == .stanza(iq))
    }
}
