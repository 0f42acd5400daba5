import Crypto
import Foundation

/// A PKCE verifier and its S256 challenge, as a public app makes one for each login.
package struct PKCE: Sendable {
    package let verifier: String
    package let challenge: String

    package init() {
        verifier = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64URL
        challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64URL
    }
}

extension Data {
    /// Base64url without padding.
    package var base64URL: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
