import NIOCore

/// A `multipart/form-data` body (RFC 7578) taken apart into its fields: what the picture upload
/// form sends.
///
/// Kinship reads these bodies itself rather than with MultipartKit 4.7.1, whose parser stops the
/// whole process on a part header name with a byte above 127 (it looks each byte up in a
/// 128-entry table; found by fuzzing), and which takes seconds over thousands of tiny parts. This
/// reader bounds the parts and the header bytes and refuses anything malformed.
struct MultipartForm: Sendable {
    /// One field of the form.
    struct Part: Sendable {
        /// The `name` of its `Content-Disposition`.
        let name: String
        /// The `filename`, for a file field.
        let filename: String?
        /// Its `Content-Type`, when it has one.
        let contentType: String?
        let body: [UInt8]
    }

    /// Why a body was refused.
    enum Failure: Error, Equatable {
        case malformed(String)
        case tooManyParts(limit: Int)
    }

    let parts: [Part]

    /// The first field named `name`.
    subscript(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The most header bytes one part may have.
    static let maximumHeaderBytes = 8 * 1024

    /// Reads `body` split by `boundary`; more than `maximumParts` parts is refused before they are
    /// copied out.
    init(parsing body: ByteBuffer, boundary: String, maximumParts: Int) throws(Failure) {
        guard Self.isValidBoundary(boundary) else { throw .malformed("the boundary is not 1 to 70 allowed characters") }
        let bytes = Array(body.readableBytesView)
        let dashBoundary = Array(("--" + boundary).utf8)
        let delimiter = Array(("\r\n--" + boundary).utf8)
        // The first boundary may open the body or follow a preamble that ends in CR LF.
        var index: Int
        if bytes.starts(with: dashBoundary) {
            index = dashBoundary.count
        } else if let found = Self.search(delimiter, in: bytes, from: 0) {
            index = found + delimiter.count
        } else {
            throw .malformed("no boundary")
        }
        var parts: [Part] = []
        while true {
            if bytes[index...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") { index += 1 }
            guard bytes[index...].starts(with: Self.crlf) else { throw .malformed("a boundary line does not end in CR LF") }
            index += 2
            guard parts.count < maximumParts else { throw .tooManyParts(limit: maximumParts) }
            let (headers, bodyStart) = try Self.headers(in: bytes, from: index)
            guard let end = Self.search(delimiter, in: bytes, from: bodyStart) else { throw .malformed("a part is not closed") }
            parts.append(try Self.part(headers: headers, body: Array(bytes[bodyStart..<end])))
            index = end + delimiter.count
        }
        self.parts = parts
    }

    private static let crlf: [UInt8] = [13, 10]

    /// `bchars` of RFC 2046 §5.1.1, not ending in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let allowed = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'()+_,-./:=? ".utf8)
        return (1...70).contains(boundary.utf8.count) && boundary.utf8.allSatisfy(allowed.contains) && boundary.last != " "
    }

    /// Where `needle` first occurs in `bytes` at or after `start`.
    private static func search(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index] == first, bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// The header lines of a part (`Name: value`, names lowercased) and where its body starts.
    private static func headers(in bytes: [UInt8], from start: Int) throws(Failure) -> ([String: String], Int) {
        var headers: [String: String] = [:]
        var index = start
        while true {
            guard let lineEnd = search(crlf, in: bytes, from: index), lineEnd - start <= maximumHeaderBytes else {
                throw .malformed("a part's headers do not end, or are too long")
            }
            if lineEnd == index { return (headers, lineEnd + 2) }
            let line = bytes[index..<lineEnd]
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > index,
                line[..<colon].allSatisfy(isTokenByte)
            else { throw .malformed("a part header is not a name and a value") }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces()
            headers[name] = value
            index = lineEnd + 2
        }
    }

    /// A token character of RFC 9110 §5.6.2: the bytes a header name is made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    private static func part(headers: [String: String], body: [UInt8]) throws(Failure) -> Part {
        guard let disposition = headers["content-disposition"] else { throw .malformed("a part has no Content-Disposition") }
        let parameters = Self.parameters(of: disposition)
        guard parameters.type == "form-data", let name = parameters.values["name"] else {
            throw .malformed("a part is not a form-data field with a name")
        }
        return Part(name: name, filename: parameters.values["filename"], contentType: headers["content-type"], body: body)
    }

    /// `form-data; name="picture"; filename="me.png"` → (`form-data`, [name: picture, filename: me.png]).
    /// Quoted values may hold `;`; a backslash escapes the next character.
    static func parameters(of header: String) -> (type: String, values: [String: String]) {
        var pieces: [String] = []
        var current = ""
        var quoted = false
        var escaped = false
        for character in header {
            if escaped {
                current.append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ";", !quoted {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        pieces.append(current)
        var values: [String: String] = [:]
        for piece in pieces.dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = piece[..<equals].trimmingSpaces().lowercased()
            if values[key] == nil { values[key] = String(piece[piece.index(after: equals)...]).trimmingSpaces() }
        }
        return (pieces[0].trimmingSpaces().lowercased(), values)
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    fileprivate func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
