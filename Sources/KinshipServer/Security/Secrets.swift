import Crypto
import Foundation
import KinshipCore

/// Random secrets and identifiers, and the one-way form in which secrets are stored.
enum Secrets {
    /// A random secret of `byteCount` bytes, base64url without padding, after `prefix`.
    ///
    /// The prefix (`kat_` for access tokens, `kac_` for codes) lets secret scanners and people
    /// tell what a leaked string is.
    static func generate(prefix: String = "", byteCount: Int = 32) -> String {
        prefix + Base64URL.random(byteCount: byteCount)
    }

    /// A random numeric identifier of 15 digits, in the style of Graph object ids.
    static func numericID() -> String {
        var generator = SystemRandomNumberGenerator()
        return String(UInt64.random(in: 100_000_000_000_000...999_999_999_999_999, using: &generator))
    }

    /// The SHA-256 of a secret, in lowercase hex: what the database keeps instead of the secret.
    static func hash(_ secret: String) -> String {
        let digest = SHA256.hash(data: Array(secret.utf8))
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { hex in
            for (offset, byte) in digest.enumerated() {
                hex[2 * offset] = hexDigits[Int(byte >> 4)]
                hex[2 * offset + 1] = hexDigits[Int(byte & 0x0F)]
            }
            return SHA256.byteCount * 2
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether a PKCE `code_verifier` hashes to the S256 `code_challenge` (RFC 7636 §4.6).
    static func verifierMatches(_ verifier: String, challenge: String) -> Bool {
        let digest = SHA256.hash(data: Data(verifier.utf8))
        return ConstantTime.equals(Base64URL.encode(digest), challenge)
    }
}
