/// Shape checks for PKCE (RFC 7636) values; the hashing lives where a SHA-256 is at hand.
public enum PKCE {
    /// Whether a string is a possible `code_verifier`: 43–128 characters of `[A-Za-z0-9-._~]`.
    public static func isWellFormedVerifier(_ verifier: String) -> Bool {
        (43...128).contains(verifier.utf8.count)
            && verifier.utf8.allSatisfy { Base64URL.isAlphabet($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "~") }
    }

    /// Whether a string is a possible S256 `code_challenge`: 43 base64url characters, unpadded.
    public static func isWellFormed(_ challenge: String) -> Bool {
        Base64URL.isWellFormed(challenge, length: 43...43)
    }
}
