import KinshipXMPP
import PropertyBased
import Testing

/// Random damage to a valid stream, random splitting, random elements: the parser answers with
/// events or an ``XMLStreamError``, never a crash, and keeps no more than its limits.
@Suite("XML stream parser properties")
struct XMLStreamFuzzTests {
    static let sample = Array(sampleStream.utf8)
    static let dangerous: [[UInt8]] =
        [
            "<", ">", "&", ";", "'", "\"", "</", "<!--", "<!DOCTYPE", "<![CDATA[", "]]>", "<?", "&#", "&#x",
            "&lol;", "xmlns:p='u'", "p:", "\u{0}", "/>", "=", " ", "\n", "张", "😀",
        ].map { Array($0.utf8) } + [[0xC3], [0xFF], [0x80]]

    /// Applies `codes` as edits: insert a dangerous piece, delete a byte, or flip a byte.
    static func damage(_ codes: [Int]) -> [UInt8] {
        var bytes = sample
        for code in codes where !bytes.isEmpty {
            let position = (code / 7) % bytes.count
            switch code % 3 {
            case 0: bytes.insert(contentsOf: dangerous[(code / 3) % dangerous.count], at: position)
            case 1: bytes.remove(at: position)
            default: bytes[position] ^= UInt8(truncatingIfNeeded: code / 11 | 1)
            }
        }
        return bytes
    }

    /// Feeds `bytes` in chunks; the outcome as events or the error.
    static func outcome(_ bytes: [UInt8], chunk: Int, limits: XMLStreamParser.Limits = .init()) -> Result<[XMLStreamParser.Event], XMLStreamError> {
        var parser = XMLStreamParser(limits: limits)
        var events: [XMLStreamParser.Event] = []
        do throws(XMLStreamError) {
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + chunk)
                events += try parser.feed(bytes[start..<end])
                start = end
            }
            try parser.finish()
            return .success(events)
        } catch {
            return .failure(error)
        }
    }

    @Test func damagedStreamsNeverCrashAndDoNotDependOnSplitting() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...1_000_000).array(of: 1...6), Gen.int(in: 1...40)) { codes, chunk in
            let bytes = Self.damage(codes)
            let whole = Self.outcome(bytes, chunk: bytes.count + 1)
            let split = Self.outcome(bytes, chunk: chunk)
            switch (whole, split) {
            case (.success(let a), .success(let b)): #expect(a == b, "edits \(codes)")
            case (.failure, .failure): break
            default: Issue.record("splitting changed the outcome for edits \(codes): \(whole) vs \(split)")
            }
        }
    }

    @Test func randomBytesGiveErrorsNotCrashes() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...255).array(of: 0...300)) { codes in
            let bytes = Array(header.utf8) + codes.map { UInt8($0) }
            _ = Self.outcome(bytes, chunk: 17)
        }
    }

    @Test func inputThatNeverClosesStaysWithinTheLimit() async {
        await propertyCheck(count: 50, input: Gen.int(in: 0...3), Gen.int(in: 1...4096)) { kind, chunk in
            let limits = XMLStreamParser.Limits(maxStanzaBytes: 4096)
            var parser = XMLStreamParser(limits: limits)
            _ = try? parser.feed(Array(header.utf8))
            let opening = ["<message><body>", "<message to='", "<message><![CDATA[", "<"][kind]
            _ = try? parser.feed(Array(opening.utf8))
            var refused = false
            for _ in 0..<((40_000 / chunk) + 2) {
                do throws(XMLStreamError) {
                    _ = try parser.feed([UInt8](repeating: UInt8(ascii: "a"), count: chunk))
                } catch {
                    guard case .limitExceeded(.stanzaBytes(4096), _) = error else {
                        Issue.record("expected the size limit, got \(error)")
                        return
                    }
                    refused = true
                    break
                }
            }
            #expect(refused, "40 kB of an unfinished \(opening) was accepted")
        }
    }

    @Test func generatedElementsRoundTrip() async {
        let pieces = ["a", "Zoë", "张伟", "&", "<", ">", "\"", "'", "\t", "\n", " ", "]]>", "😀", "x=y", "&amp;"]
        await propertyCheck(count: 300, input: Gen.int(in: 0...10_000).array(of: 1...30)) { codes in
            var iterator = codes.makeIterator()
            func next() -> Int { iterator.next() ?? 0 }
            func text() -> String { (0..<(1 + next() % 4)).map { _ in pieces[next() % pieces.count] }.joined() }
            func makeElement(depth: Int) -> XMLElement {
                var element = XMLElement(
                    ["item", "group", "query", "x"][next() % 4],
                    namespace: ["jabber:client", "jabber:iq:roster", "urn:x", nil][next() % 4]
                )
                for index in 0..<(next() % 3) { element[attribute: "a\(index)"] = text() }
                if depth < 3 {
                    for index in 0..<(next() % 3) {
                        if index % 2 == 1 || next() % 2 == 0 {
                            element.append(makeElement(depth: depth + 1))
                        } else {
                            element.append(text: text())
                        }
                    }
                }
                return element
            }
            let stanza = makeElement(depth: 0)
            let stream = header + stanza.xmlString(parentNamespace: "jabber:client") + "</stream:stream>"
            guard case .success(let events) = Self.outcome(Array(stream.utf8), chunk: 5) else {
                Issue.record("\(stream) did not parse")
                return
            }
            #expect(events.dropFirst().first == .stanza(stanza), "\(stream)")
        }
    }
}
