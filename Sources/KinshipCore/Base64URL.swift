import ExtrasBase64
import Foundation

/// Base64url without padding (RFC 4648 §5): the alphabet of tokens, codes, PKCE values, cursors
/// and token-cache keys, on the server and in the SDK alike.
public enum Base64URL {
    /// The bytes in base64url, unpadded.
    ///
    /// Encoded straight into the URL alphabet by ExtrasBase64: translating Foundation's standard
    /// base64 afterwards (three `replacingOccurrences` passes through NSString) cost more than the
    /// SHA-256 of the token it encodes, on every token issued and every PKCE check.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        ExtrasBase64.Base64.encodeToString(bytes: Array(bytes), options: [.base64UrlAlphabet, .omitPaddingCharacter])
    }

    /// The bytes of unpadded (or padded) base64url text; `nil` when it is not base64url.
    public static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64)
    }

    /// `byteCount` bytes from the system's secure random generator, encoded.
    public static func random(byteCount: Int) -> String {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        bytes.withUnsafeMutableBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            #if canImport(Darwin)
            arc4random_buf(start, buffer.count)
            #else
            // getentropy fills up to 256 bytes with one call into the kernel's generator, where
            // SystemRandomNumberGenerator makes one for every eight bytes.
            var offset = 0
            while offset < buffer.count {
                let length = min(256, buffer.count - offset)
                if getentropy(start + offset, length) != 0 {
                    var generator = SystemRandomNumberGenerator()
                    for index in offset..<offset + length { buffer[index] = generator.next() }
                }
                offset += length
            }
            #endif
        }
        return encode(bytes)
    }

    /// Whether `text` is base64url of a length in `length` (in characters).
    public static func isWellFormed(_ text: String, length: ClosedRange<Int>) -> Bool {
        length.contains(text.utf8.count) && text.utf8.allSatisfy(isAlphabet)
    }

    /// Whether a byte is one of the 64 characters of the alphabet.
    static func isAlphabet(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
