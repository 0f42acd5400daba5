/// An incremental parser for an XMPP stream: the bytes of a connection go in as they arrive,
/// and the stream header, each complete top-level stanza, and the stream's end come out.
///
/// It reads the restricted XML of RFC 6120 §11: document type declarations, comments,
/// processing instructions (other than the XML declaration at the start) and entities other than
/// the five predefined ones are refused, and it keeps ``Limits`` on stanza size, depth, attributes
/// and names so a peer cannot make it use unbounded memory. Input may be split anywhere, even
/// inside a UTF-8 sequence: the events are the same.
public struct XMLStreamParser: Sendable {
    /// Bounds on what a peer may send.
    public struct Limits: Sendable, Equatable {
        /// The largest stanza, and the largest unfinished piece of input kept while waiting.
        public var maxStanzaBytes: Int
        /// The deepest nesting, counting the stream header.
        public var maxDepth: Int
        /// The most attributes on one element.
        public var maxAttributes: Int
        /// The longest element or attribute name, in bytes.
        public var maxNameBytes: Int

        /// Limits with room for any real XMPP traffic: 16 MiB stanzas, depth 64, 64 attributes, 512-byte names.
        public init(maxStanzaBytes: Int = 16 << 20, maxDepth: Int = 64, maxAttributes: Int = 64, maxNameBytes: Int = 512) {
            self.maxStanzaBytes = maxStanzaBytes
            self.maxDepth = maxDepth
            self.maxAttributes = maxAttributes
            self.maxNameBytes = maxNameBytes
        }
    }

    /// What the stream said.
    public enum Event: Sendable, Equatable {
        /// The stream header (`<stream:stream …>`), without children.
        case streamOpened(XMLElement)
        /// A complete top-level element: a stanza, or stream features, errors and negotiation.
        case stanza(XMLElement)
        /// `</stream:stream>`.
        case streamClosed
    }

    /// The bounds this parser keeps.
    public let limits: Limits
    private var buffer: [UInt8] = []
    /// The stream offset of `buffer[0]`.
    private var bufferOffset = 0
    /// Where scanning for the end of an unfinished text or CDATA token may resume.
    private var resumeScan = 0
    private var open: [OpenElement] = []
    private var stanzaStart = 0
    private var sawRoot = false
    private var ended = false
    private var failure: XMLStreamError?

    /// A parser at the start of a stream.
    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether the stream header has been read and the stream is not closed.
    public var isStreamOpen: Bool { !open.isEmpty }

    /// Reads the next bytes; returns the events they complete.
    ///
    /// - Throws: ``XMLStreamError`` for input that is not well-formed, forbidden in XMPP, or over a limit; after
    ///   it the parser refuses everything.
    @inlinable
    public mutating func feed(_ bytes: some Collection<UInt8>) throws(XMLStreamError) -> [Event] {
        var outcome: Result<[Event], XMLStreamError>?
        bytes.withContiguousStorageIfAvailable { storage in
            outcome = Result { () throws(XMLStreamError) in try feed(UnsafeRawBufferPointer(storage)) }
        }
        if outcome == nil {
            Array(bytes).withUnsafeBytes { raw in outcome = Result { () throws(XMLStreamError) in try feed(raw) } }
        }
        return try outcome!.get()
    }

    /// Reads the next bytes from memory the caller owns for the duration of the call.
    ///
    /// - Throws: ``XMLStreamError`` for input that is not well-formed, forbidden in XMPP, or over a limit; after
    ///   it the parser refuses everything.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(XMLStreamError) -> [Event] {
        if let failure { throw failure }
        buffer.append(contentsOf: bytes)
        var events: [Event] = []
        do throws(XMLStreamError) {
            let consumed = try parseBuffer(into: &events)
            buffer.removeFirst(consumed)
            bufferOffset += consumed
            resumeScan = max(0, resumeScan - consumed)
            if buffer.count > limits.maxStanzaBytes {
                throw XMLStreamError.limitExceeded(.stanzaBytes(limits.maxStanzaBytes), offset: bufferOffset)
            }
        } catch {
            failure = error
            throw error
        }
        return events
    }

    /// The input has ended: throws ``XMLStreamError/truncated`` when it stopped inside a stanza
    /// or a token.
    public mutating func finish() throws(XMLStreamError) {
        if let failure { throw failure }
        let unfinished = open.count > 1 || buffer.contains { !Self.isWhitespace($0) }
        if unfinished {
            failure = .truncated
            throw .truncated
        }
    }

    // MARK: - Tokens

    private mutating func parseBuffer(into events: inout [Event]) throws(XMLStreamError) -> Int {
        let bytes = buffer
        return try bytes.withUnsafeBufferPointer { (input: UnsafeBufferPointer<UInt8>) throws(XMLStreamError) -> Int in
            var index = 0
            let count = input.count
            while index < count {
                if ended {
                    guard Self.isWhitespace(input[index]) else { throw malformed("content after the end of the stream", index) }
                    index += 1
                    continue
                }
                if input[index] != .lessThan {
                    guard let end = try scanText(input, from: index) else { return index }
                    try text(input, index..<end)
                    index = end
                    continue
                }
                guard index + 1 < count else { return index }
                switch input[index + 1] {
                case .slash:
                    guard let close = Self.find(.greaterThan, in: input, from: index + 2) else { return index }
                    try endTag(input, (index + 2)..<close, events: &events)
                    index = close + 1
                case .question:
                    guard let close = Self.find(sequence: [.question, .greaterThan], in: input, from: index + 2) else { return index }
                    let isDeclaration =
                        !sawRoot && bufferOffset + index == 0 && Self.hasPrefix(input, at: index, "<?xml")
                        && (close - index == 5 || Self.isWhitespace(input[index + 5]))
                    guard isDeclaration else { throw XMLStreamError.forbidden(.processingInstruction, offset: bufferOffset + index) }
                    index = close + 2
                case .exclamation:
                    guard let next = try markup(input, at: index) else { return index }
                    index = next
                default:
                    guard let close = Self.findTagEnd(in: input, from: index + 1) else {
                        try checkPending(count - index, at: index)
                        return index
                    }
                    try startTag(input, (index + 1)..<close, events: &events)
                    index = close + 1
                }
            }
            return index
        }
    }

    /// `<!…`: CDATA is read; comments and DTDs are refused. Returns the index after it, or `nil`
    /// when more input is needed.
    private mutating func markup(_ input: UnsafeBufferPointer<UInt8>, at index: Int) throws(XMLStreamError) -> Int? {
        let available = input.count - index
        if Self.hasPrefix(input, at: index, "<!--") { throw XMLStreamError.forbidden(.comment, offset: bufferOffset + index) }
        if Self.hasPrefix(input, at: index, "<!DOCTYPE") {
            throw XMLStreamError.forbidden(.documentTypeDeclaration, offset: bufferOffset + index)
        }
        if Self.hasPrefix(input, at: index, "<![CDATA[") {
            guard open.count >= 2 else { throw malformed("character data outside a stanza", index) }
            let from = max(index + 9, resumeScan)
            guard let close = Self.find(sequence: [.closeBracket, .closeBracket, .greaterThan], in: input, from: from) else {
                resumeScan = max(index + 9, input.count - 2)
                try checkPending(available, at: index)
                return nil
            }
            resumeScan = 0
            try appendText(try string(input, (index + 9)..<close, at: index + 9))
            return close + 3
        }
        let prefixes = ["<!--", "<!DOCTYPE", "<![CDATA["]
        if prefixes.contains(where: { available < $0.utf8.count && Self.hasPrefix(input, at: index, String($0.prefix(available))) }) {
            return nil
        }
        throw malformed("unknown markup declaration", index)
    }

    /// The end of a text token (the next `<`), or `nil` when the input ends first.
    private mutating func scanText(_ input: UnsafeBufferPointer<UInt8>, from start: Int) throws(XMLStreamError) -> Int? {
        var index = max(start, resumeScan)
        while index < input.count {
            let byte = input[index]
            if byte == .lessThan {
                resumeScan = 0
                return index
            }
            if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D { throw malformed("a control character in text", index) }
            index += 1
        }
        resumeScan = input.count
        try checkPending(input.count - start, at: start)
        return nil
    }

    private func checkPending(_ bytes: Int, at index: Int) throws(XMLStreamError) {
        if bytes > limits.maxStanzaBytes {
            throw XMLStreamError.limitExceeded(.stanzaBytes(limits.maxStanzaBytes), offset: bufferOffset + index)
        }
    }

    // MARK: - Content

    private mutating func text(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(XMLStreamError) {
        if open.count < 2 {
            guard input[range].allSatisfy(Self.isWhitespace) else {
                throw malformed(open.isEmpty ? "text before the stream header" : "text between stanzas", range.lowerBound)
            }
            return
        }
        try appendText(try decode(input, range))
    }

    private mutating func appendText(_ text: String) throws(XMLStreamError) {
        guard !text.isEmpty else { return }
        open[open.count - 1].element.children.append(.text(text))
    }

    private mutating func startTag(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        events: inout [Event]
    )
        throws(XMLStreamError)
    {
        var end = range.upperBound
        let selfClosing = end > range.lowerBound && input[end - 1] == .slash
        if selfClosing { end -= 1 }
        var index = range.lowerBound
        let nameRange = try name(input, from: &index, end: end)
        let qualifiedName = try string(input, nameRange, at: nameRange.lowerBound)
        let (prefix, localName) = try qualifiedParts(input, nameRange, qualifiedName: qualifiedName)
        var declarations: [(prefix: String?, uri: String)] = []
        var attributes: [XMLAttribute] = []
        attributes.reserveCapacity(4)
        var prefixedAttributes: [String] = []
        while true {
            let before = index
            while index < end, Self.isWhitespace(input[index]) { index += 1 }
            if index == end { break }
            guard index > before else { throw malformed("attributes must be separated by white space", index) }
            let attributeRange = try name(input, from: &index, end: end)
            let attributeName = try string(input, attributeRange, at: attributeRange.lowerBound)
            let attributeColon = Self.colon(in: input, attributeRange)
            let attributePrefix = try attributeColon.map { (colon: Int) throws(XMLStreamError) -> String in
                try string(input, attributeRange.lowerBound..<colon, at: colon)
            }
            while index < end, Self.isWhitespace(input[index]) { index += 1 }
            guard index < end, input[index] == .equals else { throw malformed("attribute \(attributeName) has no value", index) }
            index += 1
            while index < end, Self.isWhitespace(input[index]) { index += 1 }
            guard index < end, input[index] == .doubleQuote || input[index] == .singleQuote else {
                throw malformed("attribute \(attributeName)'s value is not quoted", index)
            }
            let quote = input[index]
            guard let close = Self.find(quote, in: input, from: index + 1), close < end else {
                throw malformed("attribute \(attributeName)'s value is not closed", index)
            }
            if let lessThan = input[(index + 1)..<close].firstIndex(of: .lessThan) {
                throw malformed("< in an attribute value", lessThan)
            }
            let value = try decode(input, (index + 1)..<close, normalizingWhitespace: true)
            index = close + 1
            if attributeRange.count == 5, attributePrefix == nil, attributeName == "xmlns" {
                declarations.append((nil, value))
            } else if attributePrefix == "xmlns" {
                declarations.append((try string(input, (attributeRange.lowerBound + 6)..<attributeRange.upperBound, at: index), value))
            } else {
                if let attributePrefix, attributePrefix != "xml" { prefixedAttributes.append(attributePrefix) }
                guard !attributes.contains(where: { $0.name == attributeName }) else {
                    throw malformed("attribute \(attributeName) appears twice", index)
                }
                attributes.append(XMLAttribute(attributeName, value))
            }
            if attributes.count + declarations.count > limits.maxAttributes {
                throw XMLStreamError.limitExceeded(.attributes(limits.maxAttributes), offset: bufferOffset + index)
            }
        }
        if open.count >= limits.maxDepth {
            throw XMLStreamError.limitExceeded(.depth(limits.maxDepth), offset: bufferOffset + range.lowerBound)
        }
        if open.count == 1 { stanzaStart = bufferOffset + range.lowerBound - 1 }
        let namespace = try resolve(prefix, declarations: declarations, at: range.lowerBound)
        for attributePrefix in prefixedAttributes {
            _ = try resolve(attributePrefix, declarations: declarations, at: range.lowerBound)
        }
        let element = XMLElement(localName, namespace: namespace, attributes: attributes)
        if open.isEmpty {
            guard !sawRoot else { throw malformed("a second stream header", range.lowerBound) }
            sawRoot = true
            open.append(OpenElement(element: element, qualifiedName: qualifiedName, declarations: declarations))
            events.append(.streamOpened(element))
            if selfClosing { try closeTop(events: &events, at: range.lowerBound) }
            return
        }
        open.append(OpenElement(element: element, qualifiedName: qualifiedName, declarations: declarations))
        try checkStanzaSize(at: range.upperBound)
        if selfClosing { try closeTop(events: &events, at: range.lowerBound) }
    }

    private mutating func endTag(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        events: inout [Event]
    )
        throws(XMLStreamError)
    {
        var index = range.lowerBound
        let nameRange = try name(input, from: &index, end: range.upperBound)
        guard input[index..<range.upperBound].allSatisfy(Self.isWhitespace) else { throw malformed("junk in an end tag", index) }
        let name = UnsafeBufferPointer(rebasing: input[nameRange])
        guard let top = open.last, top.qualifiedName.utf8.elementsEqual(name) else {
            let written = String(decoding: name, as: UTF8.self)
            throw malformed(
                open.last.map { "</\(written)> does not close <\($0.qualifiedName)>" } ?? "</\(written)> closes nothing",
                range.lowerBound
            )
        }
        try closeTop(events: &events, at: range.lowerBound)
    }

    /// Ends the innermost open element, whose end tag (or `/>`) was just read.
    private mutating func closeTop(events: inout [Event], at index: Int) throws(XMLStreamError) {
        let top = open.removeLast()
        switch open.count {
        case 0:
            ended = true
            events.append(.streamClosed)
        case 1:
            events.append(.stanza(top.element))
        default:
            open[open.count - 1].element.children.append(.element(top.element))
            try checkStanzaSize(at: index)
        }
    }

    private func checkStanzaSize(at index: Int) throws(XMLStreamError) {
        if bufferOffset + index - stanzaStart > limits.maxStanzaBytes {
            throw XMLStreamError.limitExceeded(.stanzaBytes(limits.maxStanzaBytes), offset: bufferOffset + index)
        }
    }

    private func resolve(
        _ prefix: String?,
        declarations: [(prefix: String?, uri: String)],
        at index: Int
    ) throws(XMLStreamError)
        -> String?
    {
        if prefix == "xml" { return "http://www.w3.org/XML/1998/namespace" }
        if let declared = declarations.last(where: { $0.prefix == prefix }) { return declared.uri.isEmpty ? nil : declared.uri }
        for element in open.reversed() {
            if let declared = element.declarations.last(where: { $0.prefix == prefix }) {
                return declared.uri.isEmpty ? nil : declared.uri
            }
        }
        if let prefix { throw XMLStreamError.unboundPrefix(prefix, offset: bufferOffset + index) }
        return nil
    }

    // MARK: - Names and text

    /// A name starting at `index` (letters, digits, `_ : - .`, and any non-ASCII byte).
    private func name(_ input: UnsafeBufferPointer<UInt8>, from index: inout Int, end: Int) throws(XMLStreamError) -> Range<Int> {
        let start = index
        while index < end, Self.isNameByte(input[index]) { index += 1 }
        guard index > start else { throw malformed("a name was expected", start) }
        let first = input[start]
        guard !(first >= .zero && first <= .nine), first != .hyphen, first != .dot else {
            throw malformed("a name cannot start with a digit, - or .", start)
        }
        if index - start > limits.maxNameBytes {
            throw XMLStreamError.limitExceeded(.nameLength(limits.maxNameBytes), offset: bufferOffset + start)
        }
        return start..<index
    }

    private func string(_ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at index: Int) throws(XMLStreamError) -> String {
        guard let string = Self.utf8String(UnsafeBufferPointer(rebasing: input[range])) else {
            throw XMLStreamError.invalidUTF8(offset: bufferOffset + index)
        }
        return string
    }

    /// The bytes as a string, or `nil` when they are not UTF-8. ASCII, the common case, skips the
    /// general validation.
    private static func utf8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Text or an attribute value with its character and entity references replaced.
    private func decode(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        normalizingWhitespace: Bool = false
    )
        throws(XMLStreamError) -> String
    {
        let needsWork = input[range].contains { $0 == .ampersand || (normalizingWhitespace && ($0 == 0x09 || $0 == 0x0A || $0 == 0x0D)) }
        guard needsWork else { return try string(input, range, at: range.lowerBound) }
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = input[index]
            if byte != .ampersand {
                output.append(normalizingWhitespace && (byte == 0x09 || byte == 0x0A || byte == 0x0D) ? .space : byte)
                index += 1
                continue
            }
            guard let semicolon = Self.find(.semicolon, in: input, from: index + 1), semicolon < range.upperBound,
                semicolon - index <= 12
            else { throw malformed("& that does not start a reference (write &amp;)", index) }
            let reference = try string(input, (index + 1)..<semicolon, at: index)
            switch reference {
            case "amp": output.append(.ampersand)
            case "lt": output.append(.lessThan)
            case "gt": output.append(.greaterThan)
            case "quot": output.append(.doubleQuote)
            case "apos": output.append(.singleQuote)
            default:
                guard reference.hasPrefix("#") else {
                    throw XMLStreamError.forbidden(.entityReference(reference), offset: bufferOffset + index)
                }
                let digits = reference.dropFirst()
                let value = digits.hasPrefix("x") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
                guard let value, let scalar = Unicode.Scalar(value), Self.isXMLCharacter(value) else {
                    throw malformed("&\(reference); is not a character XML allows", index)
                }
                output.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = semicolon + 1
        }
        guard let string = output.withUnsafeBufferPointer(Self.utf8String) else {
            throw XMLStreamError.invalidUTF8(offset: bufferOffset + range.lowerBound)
        }
        return string
    }

    private func malformed(_ reason: String, _ index: Int) -> XMLStreamError {
        .malformed(reason, offset: bufferOffset + index)
    }

    // MARK: - Byte helpers

    private static func find(_ byte: UInt8, in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index < input.count {
            if input[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func find(sequence: [UInt8], in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start
        while index + sequence.count <= input.count {
            if input[index] == sequence[0], zip(sequence.indices, sequence).allSatisfy({ input[index + $0] == $1 }) { return index }
            index += 1
        }
        return nil
    }

    /// The `>` that ends a tag, skipping quoted attribute values.
    private static func findTagEnd(in input: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var quote: UInt8 = 0
        var index = start
        while index < input.count {
            let byte = input[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == .doubleQuote || byte == .singleQuote {
                quote = byte
            } else if byte == .greaterThan {
                return index
            }
            index += 1
        }
        return nil
    }

    private static func hasPrefix(_ input: UnsafeBufferPointer<UInt8>, at index: Int, _ prefix: String) -> Bool {
        var position = index
        for byte in prefix.utf8 {
            guard position < input.count, input[position] == byte else { return false }
            position += 1
        }
        return true
    }

    /// A qualified name's prefix (`nil` without one) and local name.
    private func qualifiedParts(
        _ input: UnsafeBufferPointer<UInt8>,
        _ range: Range<Int>,
        qualifiedName: String
    ) throws(XMLStreamError)
        -> (prefix: String?, local: String)
    {
        guard let colon = Self.colon(in: input, range) else { return (nil, qualifiedName) }
        guard colon > range.lowerBound, colon + 1 < range.upperBound else { throw malformed("a name with an empty prefix or local part", colon) }
        return (try string(input, range.lowerBound..<colon, at: colon), try string(input, (colon + 1)..<range.upperBound, at: colon))
    }

    private static func colon(in input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if input[index] == UInt8(ascii: ":") { return index }
            index += 1
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == .space || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), .zero ... .nine, 0x80...0xFF,
            UInt8(ascii: "_"), UInt8(ascii: ":"), .hyphen, .dot:
            true
        default:
            false
        }
    }

    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value)
            || (0x10000...0x10FFFF).contains(value)
    }
}

/// An element whose end tag has not come yet.
private struct OpenElement: Sendable {
    var element: XMLElement
    let qualifiedName: String
    let declarations: [(prefix: String?, uri: String)]
}

extension UInt8 {
    fileprivate static let lessThan = UInt8(ascii: "<")
    fileprivate static let greaterThan = UInt8(ascii: ">")
    fileprivate static let slash = UInt8(ascii: "/")
    fileprivate static let question = UInt8(ascii: "?")
    fileprivate static let exclamation = UInt8(ascii: "!")
    fileprivate static let equals = UInt8(ascii: "=")
    fileprivate static let doubleQuote = UInt8(ascii: "\"")
    fileprivate static let singleQuote = UInt8(ascii: "'")
    fileprivate static let ampersand = UInt8(ascii: "&")
    fileprivate static let semicolon = UInt8(ascii: ";")
    fileprivate static let closeBracket = UInt8(ascii: "]")
    fileprivate static let space = UInt8(ascii: " ")
    fileprivate static let zero = UInt8(ascii: "0")
    fileprivate static let nine = UInt8(ascii: "9")
    fileprivate static let hyphen = UInt8(ascii: "-")
    fileprivate static let dot = UInt8(ascii: ".")
}
