/// Where and how a client connects and logs in.
public struct XMPPConfiguration: Sendable {
    /// Which certificates the client accepts for the server.
    public enum Trust: Sendable, Equatable {
        /// The system's trusted roots, with the domain checked against the certificate.
        case system
        /// Only this PEM certificate (a local test server's self-signed one), domain checked too.
        case certificate(path: String)
    }

    /// The account: `local@domain`.
    public var jid: JID
    public var password: String
    /// The host to connect to; the JID's domain when `nil`.
    public var host: String?
    public var port: Int
    public var trust: Trust
    /// Whether SASL PLAIN may be used (only ever over TLS) when no SCRAM mechanism is offered.
    public var allowsPlain: Bool
    /// The resource to ask for; the server picks one when `nil`.
    public var resource: String?
    /// How long connecting and each negotiation step may take, and how long a request waits.
    public var timeout: Duration

    public init(
        jid: JID, password: String, host: String? = nil, port: Int = 5222, trust: Trust = .system, allowsPlain: Bool = false,
        resource: String? = nil, timeout: Duration = .seconds(15)
    ) {
        self.jid = jid.bare
        self.password = password
        self.host = host
        self.port = port
        self.trust = trust
        self.allowsPlain = allowsPlain
        self.resource = resource
        self.timeout = timeout
    }
}
