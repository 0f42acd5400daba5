import Crypto
import Foundation
import KinshipCore

/// A fresh PKCE verifier (RFC 7636) and its S256 challenge, plus the random `state` of one login
/// (and its `nonce`, for an OpenID login).
public struct LoginSecrets: Sendable, Equatable {
    /// Kept by the app until the code comes back; sent only with the code.
    public let verifier: String
    /// Sent to the dialog as `code_challenge` (method S256).
    public let challenge: String
    /// Sent to the dialog and compared with what comes back to the redirect URI.
    public let state: String
    /// Sent to the dialog as `nonce` by an OpenID login; the id_token must carry it back.
    public var nonce: String?

    /// 32 random bytes for the verifier (43 characters), 16 for the state.
    public static func make() -> LoginSecrets {
        let verifier = Base64URL.random(byteCount: 32)
        return LoginSecrets(verifier: verifier, challenge: challenge(for: verifier), state: Base64URL.random(byteCount: 16))
    }

    /// The S256 challenge: base64url(SHA-256(verifier)), unpadded.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }
}
