/// Shape checks for PKCE (RFC 7636) values; the hashing lives where a SHA-256 is at hand.
public enum PKCE {
    /// Whether a string is a possible `code_verifier`: 43–128 characters of `[A-Za-z0-9-._~]`.
    public static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count) && verifier.utf8.allSatisfy(isUnreserved)
    }

    /// Whether a string is a possible S256 `code_challenge`: 43 base64url characters, unpadded.
    public static func isWellFormed(_ challenge: String) -> Bool {
        challenge.utf8.count == 43 && challenge.utf8.allSatisfy(isBase64URL)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isBase64URL(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    private static func isBase64URL(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}
