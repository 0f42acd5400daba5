import Crypto
import Foundation

/// Seals the secrets the database has to keep readable — id_token signing keys, apps' signing
/// secrets — with AES-GCM under a key derived from the ``ServerSecret`` for one purpose, each
/// bound to the identifier of what it belongs to: someone who reads the database (or a backup)
/// cannot open them, nor move one to another row.
struct SecretSeal: Sendable {
    private let secret: ServerSecret
    private let purpose: String

    init(secret: ServerSecret, purpose: String) {
        self.secret = secret
        self.purpose = purpose
    }

    /// `bytes` sealed for `owner`, as base64 of nonce, ciphertext and tag.
    func seal(_ bytes: some DataProtocol, for owner: String) throws -> String {
        try AES.GCM.seal(bytes, using: secret.key(for: purpose), authenticating: Data(owner.utf8)).combined!.base64EncodedString()
    }

    /// The bytes sealed for `owner`, or `nil` when `text` was not sealed for it with this server secret.
    func open(_ text: String, for owner: String) -> Data? {
        guard let combined = Data(base64Encoded: text), let box = try? AES.GCM.SealedBox(combined: combined) else { return nil }
        return try? AES.GCM.open(box, using: secret.key(for: purpose), authenticating: Data(owner.utf8))
    }
}
