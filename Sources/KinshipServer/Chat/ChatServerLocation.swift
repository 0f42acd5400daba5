import Hummingbird
import KinshipCore

/// Where this Kinship's chat server is, as `GET /chat/server` tells chat clients: the chat domain
/// (addresses are `USERID@domain`), the host and port to connect to, and — only for the
/// self-signed certificate of the Prosody `kinship serve --chat` runs on loopback — that
/// certificate, so a client on the same machine can trust exactly it.
public struct ChatServerLocation: Sendable, Equatable, Encodable {
    /// The chat domain: addresses are `USERID@domain`.
    public var domain: String
    /// The host chat clients connect to.
    public var host: String
    /// The port chat clients connect to.
    public var port: Int
    /// The PEM certificate of a loopback demo chat server; `nil` for a real one.
    public var certificate: String?

    /// A location; `certificate` only for a loopback demo server whose certificate clients may pin.
    public init(domain: String, host: String, port: Int, certificate: String? = nil) {
        self.domain = domain
        self.host = host
        self.port = port
        self.certificate = certificate
    }

    func addRoute(to router: Router<KinshipRequestContext>) {
        let location = self
        router.get("/chat/server") { _, _ in JSONResponse.make(location) }
    }
}
