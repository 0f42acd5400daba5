import Hummingbird

/// An app that ships with a deployment and is served by the platform's own process — the way
/// `kinship serve` mounts the sample social app — without the platform depending on it.
///
/// At start the platform registers the app (a confidential app with a fixed client id and a
/// client secret derived from the ``ServerSecret``, so every process agrees on it), then calls
/// ``mount`` to add its routes. The app still talks to the platform only over HTTP, like any other.
public struct BuiltInApp: Sendable {
    /// What a built-in app is given when it is mounted.
    public struct Credentials: Sendable {
        /// The app's client id.
        public let clientID: String
        /// The app's client secret (for the token endpoint).
        public let clientSecret: String
        /// The secret that signs the app's callbacks (``SignedRequest``).
        public let signingSecret: String
        /// Where the platform is reached; read on each request, as a server started on port 0
        /// learns its address only once it listens.
        public let platformURL: @Sendable () -> String
        /// Whether cookies must be `Secure` (the platform is served over https).
        public let secureCookies: Bool
    }

    /// The client id, fixed so that restarts and other processes find the same app.
    public let id: String
    /// The app's name on the consent page.
    public let name: String
    /// The path of the app's OAuth callback on the platform's host.
    public let callbackPath: String
    /// The path of the app's deauthorize callback on the platform's host, if it has one.
    public let deauthorizePath: String?
    /// Adds the app's routes.
    public let mount: @Sendable (Credentials, Router<KinshipRequestContext>) async throws -> Void

    public init(
        id: String,
        name: String,
        callbackPath: String,
        deauthorizePath: String? = nil,
        mount: @escaping @Sendable (Credentials, Router<KinshipRequestContext>) async throws -> Void
    ) {
        self.id = id
        self.name = name
        self.callbackPath = callbackPath
        self.deauthorizePath = deauthorizePath
        self.mount = mount
    }
}
