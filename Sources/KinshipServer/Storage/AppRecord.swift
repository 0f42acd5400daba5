import KinshipCore

/// An app registered on the platform (an OAuth client), as stored.
public struct AppRecord: Sendable, Equatable {
    /// The client id, also the `APP_ID` of the `kinship{APP_ID}://authorize` scheme.
    public var id: String
    public var name: String
    /// `true` for apps that keep their secret on a server: they authenticate the code exchange
    /// with it. Every other app is public and must use PKCE.
    public var isConfidential: Bool
    /// The redirect URIs registered for the app, matched exactly (loopback ports excepted).
    public var redirectURIs: [String]
    var secretHash: String
    public var createdAt: Int
    /// Where the platform posts a `signed_request` when a person removes the app.
    public var deauthorizeCallbackURL: String? = nil
    /// Where the platform posts a `signed_request` when a person asks for their data to be deleted.
    public var dataDeletionCallbackURL: String? = nil
    /// The secret that signs the callbacks, sealed (see ``SecretSeal``); `nil` until callbacks are set up.
    var sealedSigningSecret: String? = nil
    /// The person who made the app on `/developers`; `nil` for apps made by an operator.
    public var ownerID: String? = nil
    /// Whether the app may ask for `publish_actions`.
    public var mayPublish: Bool = true
    /// Whether the app may ask for `xmpp_login`.
    public var mayChat: Bool = true
    /// The secret before the last rotation, and until when it still works.
    var previousSecretHash: String? = nil
    public var previousSecretExpiresAt: Int? = nil

    /// The custom scheme redirect every app may use without registering it.
    public var customSchemeRedirectURI: String { "kinship\(id)://authorize" }

    /// The first permission of `scope` the app may not ask for (`publish_actions`, `xmpp_login`
    /// unless its developer allowed them), or `nil`.
    func withheldPermission(in scope: [Permission]) -> Permission? {
        scope.first { ($0 == .publishActions && !mayPublish) || ($0 == .xmppLogin && !mayChat) }
    }

    /// The hashes of the secrets that work at `now`: the current one, and the one before the last
    /// rotation during its grace period.
    func secretHashes(at now: Int) -> [String] {
        guard let previousSecretHash, let expiry = previousSecretExpiresAt, now < expiry else { return [secretHash] }
        return [secretHash, previousSecretHash]
    }

    /// Whether `secret` is a secret of this app that works at `now`, compared in constant time.
    func verifySecret(_ secret: String, at now: Int) -> Bool {
        let hash = Secrets.hash(secret)
        return secretHashes(at: now).reduce(false) { $0 || ConstantTime.equals(hash, $1) }
    }
}

struct AppRow: Decodable {
    var id: String
    var name: String
    var isConfidential: Int
    var secretHash: String
    var createdAt: Int
    var deauthorizeCallbackUrl: String?
    var dataDeletionCallbackUrl: String?
    var sealedSigningSecret: String?
    var ownerId: String?
    var mayPublish: Int
    var mayChat: Int
    var previousSecretHash: String?
    var previousSecretExpiresAt: Int?
}
