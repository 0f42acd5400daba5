/// An ordered list of name–value pairs in `application/x-www-form-urlencoded` form: a POST body,
/// or the query of a dialog or redirect URL.
///
/// Repeated names are kept (`permission=email&permission=user_friends`), which is how HTML forms
/// send ticked checkboxes.
public struct FormParameters: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// The pairs in order.
    public private(set) var pairs: [(name: String, value: String)]

    /// No pairs.
    public init() { self.pairs = [] }

    /// The given pairs, in order.
    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// The pairs of a literal such as `["code": code, "state": state]`, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// Decodes a form-encoded string: `+` is a space, `%XX` a byte of UTF-8.
    ///
    /// A pair without `=` has an empty value; malformed escapes are kept literally. The string is
    /// read as UTF-8 bytes, not characters: every query string of every call passes through here.
    public init(formEncoded string: some StringProtocol) {
        var pairs: [(name: String, value: String)] = []
        for part in Substring(string).utf8.split(separator: UInt8(ascii: "&")) {
            if let equals = part.firstIndex(of: UInt8(ascii: "=")) {
                pairs.append((name: Self.decode(part[..<equals]), value: Self.decode(part[part.index(after: equals)...])))
            } else {
                pairs.append((name: Self.decode(part), value: ""))
            }
        }
        self.pairs = pairs
    }

    /// The first value for a name.
    public subscript(_ name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// Every value for a name, in order.
    public func all(_ name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// Appends a pair.
    public mutating func append(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// Appends every pair of `other`.
    public mutating func append(contentsOf other: FormParameters) {
        pairs.append(contentsOf: other.pairs)
    }

    /// Appends a pair when the value is not `nil`.
    public mutating func append(_ name: String, _ value: String?) {
        if let value { append(name, value) }
    }

    /// The form-encoded string.
    public var formEncoded: String {
        pairs.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
    }

    /// Whether both hold the same pairs in the same order.
    public static func == (lhs: FormParameters, rhs: FormParameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    /// Percent-encodes everything but ASCII letters, digits and `*-._`, and writes a space as `+`,
    /// as the WHATWG URL standard's form serializer does.
    public static func encode(_ string: String) -> String {
        var output = ""
        output.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                output.append("+")
            default:
                output.append("%")
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return output
    }

    private static let hexDigits: [Character] = Array("0123456789ABCDEF")

    private static func decode(_ encoded: Substring.UTF8View) -> String {
        guard encoded.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }) else {
            return String(Substring(encoded))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.count)
        var rest = encoded
        while let byte = rest.popFirst() {
            switch byte {
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                if let high = rest.first.flatMap(hexValue), let low = rest.dropFirst().first.flatMap(hexValue) {
                    bytes.append(high << 4 | low)
                    rest = rest.dropFirst(2)
                } else {
                    bytes.append(byte)
                }
            default:
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
