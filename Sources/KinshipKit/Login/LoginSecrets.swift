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
        let verifier = randomBase64URL(byteCount: 32)
        return LoginSecrets(verifier: verifier, challenge: challenge(for: verifier), state: randomBase64URL(byteCount: 16))
    }

    /// The S256 challenge: base64url(SHA-256(verifier)), unpadded.
    static func challenge(for verifier: String) -> String {
        base64URL(Data(SHA256.hash(data: Data(verifier.utf8))))
    }
}

/// Random bytes from the system's secure generator, base64url without padding.
func randomBase64URL(byteCount: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return base64URL(Data((0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }))
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        .replacingOccurrences(of: "=", with: "")
}
