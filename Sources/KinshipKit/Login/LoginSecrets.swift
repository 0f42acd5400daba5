import Crypto
import Foundation
import KinshipCore

/// A fresh PKCE verifier (RFC 7636) and its S256 challenge, plus the random `state` of one login.
struct LoginSecrets: Sendable {
    let verifier: String
    let challenge: String
    let state: String

    /// 32 random bytes for the verifier (43 characters), 16 for the state.
    static func make() -> LoginSecrets {
        let verifier = Base64URL.random(byteCount: 32)
        return LoginSecrets(verifier: verifier, challenge: challenge(for: verifier), state: Base64URL.random(byteCount: 16))
    }

    /// The S256 challenge: base64url(SHA-256(verifier)), unpadded.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }
}
