/// Where and how a client connects and logs in.
public struct XMPPConfiguration: Sendable {
    /// Which certificates the client accepts for the server.
    public enum Trust: Sendable, Equatable {
        /// The system's trusted roots, with the domain checked against the certificate.
        case system
        /// Only this PEM certificate (a local test server's self-signed one), domain checked too.
        case certificate(path: String)
    }

    /// Where the access token of a token login comes from: asked at every login, so a reconnect
    /// after the token expired logs in with a fresh one. It may throw to say there is none.
    public typealias TokenProvider = @Sendable () async throws -> String

    /// The account: `local@domain`.
    public var jid: JID
    /// The password of a password login (SCRAM, or PLAIN when allowed); unused with a token.
    public var password: String
    /// With a token login (Kinship Chat, where an access token granted `xmpp_login` is the
    /// credential): SASL OAUTHBEARER (RFC 7628) when the server offers it, else PLAIN with the
    /// token as the password — always over TLS, as every login here is.
    public var tokenProvider: TokenProvider?
    /// The host to connect to; when `nil`, the domain's SRV records (if ``usesSRV``) or the
    /// JID's domain.
    public var host: String?
    /// The port to connect to when no SRV record gives one (5222 by default).
    public var port: Int
    /// Look up `_xmpp-client._tcp.DOMAIN` when no host is given (RFC 6120 §3.2.1), falling back
    /// to the domain and ``port`` when there is no record.
    public var usesSRV: Bool
    /// The DNS server for SRV lookups; the system's (`/etc/resolv.conf`) when `nil`.
    public var dnsServer: SRVResolver.Server?
    /// Which certificates the client accepts for the server.
    public var trust: Trust
    /// Whether SASL PLAIN may be used (only ever over TLS) when no SCRAM mechanism is offered.
    public var allowsPlain: Bool
    /// The resource to ask for; the server picks one when `nil`.
    public var resource: String?
    /// How long connecting and each negotiation step may take, and how long a request waits.
    public var timeout: Duration

    /// A password login to `jid`; the JID's resource is dropped (ask for one with `resource`).
    ///
    /// - Parameters:
    ///   - jid: The account.
    ///   - password: The account's password.
    ///   - host: The host to connect to; the JID's domain when `nil`.
    ///   - port: The port to connect to.
    ///   - trust: Which certificates to accept.
    ///   - allowsPlain: Whether SASL PLAIN (over TLS) may be used when no SCRAM mechanism is offered.
    ///   - resource: The resource to ask for.
    ///   - timeout: How long connecting and each step may take.
    ///   - usesSRV: Whether to look up the domain's SRV records when no host is given.
    ///   - dnsServer: The DNS server for SRV lookups.
    public init(
        jid: JID,
        password: String,
        host: String? = nil,
        port: Int = 5222,
        trust: Trust = .system,
        allowsPlain: Bool = false,
        resource: String? = nil,
        timeout: Duration = .seconds(15),
        usesSRV: Bool = false,
        dnsServer: SRVResolver.Server? = nil
    ) {
        self.jid = jid.bare
        self.password = password
        self.host = host
        self.port = port
        self.trust = trust
        self.allowsPlain = allowsPlain
        self.resource = resource
        self.timeout = timeout
        self.usesSRV = usesSRV
        self.dnsServer = dnsServer
    }

    /// A token login: `tokenProvider` gives the access token each time the client logs in.
    public init(
        jid: JID,
        tokenProvider: @escaping TokenProvider,
        host: String? = nil,
        port: Int = 5222,
        trust: Trust = .system,
        resource: String? = nil,
        timeout: Duration = .seconds(15),
        usesSRV: Bool = false,
        dnsServer: SRVResolver.Server? = nil
    ) {
        self.init(
            jid: jid,
            password: "",
            host: host,
            port: port,
            trust: trust,
            resource: resource,
            timeout: timeout,
            usesSRV: usesSRV,
            dnsServer: dnsServer
        )
        self.tokenProvider = tokenProvider
    }

    /// Where to connect, in order: the given host, else the SRV targets, else the domain.
    func endpoints() async -> [(host: String, port: Int)] {
        if let host { return [(host, port)] }
        let fallback = [(jid.domain, port)]
        guard usesSRV, let server = dnsServer ?? SRVResolver.Server.system() else { return fallback }
        let records = (try? await SRVResolver(server: server).lookup("_xmpp-client._tcp.\(jid.domain)")) ?? []
        let usable = records.filter { !$0.target.isEmpty }
        return usable.isEmpty ? fallback : usable.map { ($0.target, Int($0.port)) }
    }
}
