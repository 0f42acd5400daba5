import NIOCore

/// Writes one JSON object member by member, straight into a buffer, in the order the members are
/// given.
///
/// For answers on the busiest paths, whose shape is fixed: Foundation's `JSONEncoder` builds and
/// sorts its own tree of the value first, which cost the token endpoint several microseconds a
/// token (see ``TokenResponse/json``). Strings are escaped as `JSONEncoder` escapes them with
/// `.withoutEscapingSlashes`.
struct JSONObjectWriter {
    private var buffer: ByteBuffer
    private var isEmpty = true

    /// A writer with room for `capacity` bytes before it grows.
    init(capacity: Int) {
        buffer = ByteBuffer()
        buffer.reserveCapacity(capacity)
        buffer.writeInteger(UInt8(ascii: "{"))
    }

    /// Adds `"key":"value"`.
    mutating func member(_ key: StaticString, _ value: String) {
        start(key)
        writeString(value)
    }

    /// Adds `"key":value`.
    mutating func member(_ key: StaticString, _ value: Int) {
        start(key)
        buffer.writeString(String(value))
    }

    /// Adds `"key":true` or `"key":false`.
    mutating func member(_ key: StaticString, _ value: Bool) {
        start(key)
        buffer.writeStaticString(value ? "true" : "false")
    }

    /// Adds `"key":"value"` for a key known only at run time.
    mutating func member(named key: String, _ value: String) {
        if !isEmpty { buffer.writeInteger(UInt8(ascii: ",")) }
        isEmpty = false
        writeString(key)
        buffer.writeInteger(UInt8(ascii: ":"))
        writeString(value)
    }

    /// Adds `"key":["value",…]`.
    mutating func member(_ key: StaticString, _ values: [String]) {
        start(key)
        buffer.writeInteger(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: ",")) }
            writeString(value)
        }
        buffer.writeInteger(UInt8(ascii: "]"))
    }

    /// The object, closed.
    consuming func finish() -> ByteBuffer {
        buffer.writeInteger(UInt8(ascii: "}"))
        return buffer
    }

    private mutating func start(_ key: StaticString) {
        if !isEmpty { buffer.writeInteger(UInt8(ascii: ",")) }
        isEmpty = false
        buffer.writeInteger(UInt8(ascii: "\""))
        buffer.writeStaticString(key)
        buffer.writeStaticString("\":")
    }

    private mutating func writeString(_ value: String) {
        buffer.writeInteger(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { bytes in
            var pending = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "\\") || bytes[index] < 0x20 {
                buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[pending..<index]))
                buffer.writeString(Self.escaped(bytes[index]))
                pending = index + 1
            }
            buffer.writeBytes(UnsafeBufferPointer(rebasing: bytes[pending...]))
        }
        buffer.writeInteger(UInt8(ascii: "\""))
    }

    /// How JSON writes a quote, a backslash or a control character inside a string.
    private static func escaped(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): #"\""#
        case UInt8(ascii: "\\"): #"\\"#
        case 0x08: #"\b"#
        case 0x0C: #"\f"#
        case UInt8(ascii: "\n"): #"\n"#
        case UInt8(ascii: "\r"): #"\r"#
        case UInt8(ascii: "\t"): #"\t"#
        default: #"\u00"# + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
    }
}
