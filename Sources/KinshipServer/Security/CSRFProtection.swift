import Crypto
import Foundation
import KinshipCore

/// Tokens that prove a form was served by this platform to this browser.
///
/// A token is an HMAC, under a key all server processes derive from the ``ServerSecret``, of the
/// secret it is bound to: the browser's session cookie on the consent and logout forms, or a
/// pre-login cookie on the login form. A page on another site can neither read the cookie nor
/// compute the token.
struct CSRFProtection: Sendable {
    /// The key's bytes (`SymmetricKey` is not `Sendable`).
    private let key: [UInt8]

    init(key: SymmetricKey) {
        self.key = key.withUnsafeBytes { Array($0) }
    }

    /// The token for a form bound to `secret`.
    func token(boundTo secret: String) -> String {
        Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Data(secret.utf8), using: SymmetricKey(data: key)))
    }

    /// Whether a submitted token is the one for `secret`, compared in constant time.
    func verify(_ submitted: String?, boundTo secret: String?) -> Bool {
        guard let submitted, let secret, !secret.isEmpty else { return false }
        return ConstantTime.equals(submitted, token(boundTo: secret))
    }
}
