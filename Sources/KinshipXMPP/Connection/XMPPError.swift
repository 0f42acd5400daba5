/// Why a connection, a login or a request failed.
public enum XMPPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing accepted the TCP connection.
    case connectionRefused(host: String, port: Int)
    /// The host could not be reached (unknown name, network down).
    case unreachable(String)
    /// A step took longer than the configured time.
    case timedOut(String)
    /// The server does not offer STARTTLS, and the client never talks in the clear.
    case tlsUnavailable
    /// The TLS handshake failed (a protocol error).
    case tlsFailed(String)
    /// The server's certificate is not one the client trusts, or does not name the domain.
    case untrustedCertificate(String)
    /// Wrong user name, password or token (`not-authorized`).
    case notAuthorized
    /// A token login found no token: the token provider threw this.
    case noToken(String)
    /// SASL failed otherwise: another condition, or a server that could not prove itself.
    case authenticationFailed(String)
    /// None of the server's SASL mechanisms is one the client may use.
    case noUsableMechanism(offered: [String])
    /// The server ended the stream with an error (`<stream:error>`).
    case streamError(condition: String, text: String?)
    /// The server sent XML the client refuses.
    case malformedStream(XMLStreamError)
    /// Resource binding failed.
    case bindFailed(String)
    /// The request was answered with an error.
    case stanzaError(StanzaError)
    /// Accepting or declining a friend request that was never made.
    case noSuchRequest(JID)
    /// The connection is closed (or was never opened).
    case disconnected

    /// A sentence for a person, saying what to do where there is something to do.
    public var description: String {
        switch self {
        case .connectionRefused(let host, let port): "Connection refused by \(host):\(port); is the XMPP server running?"
        case .unreachable(let reason): "The XMPP server could not be reached: \(reason)"
        case .timedOut(let step): "Timed out while \(step)."
        case .tlsUnavailable: "The server does not offer STARTTLS; not connecting without encryption."
        case .tlsFailed(let reason): "TLS failed: \(reason)"
        case .untrustedCertificate(let reason):
            "The server's certificate is not trusted (\(reason)). A server with a certificate of its own, such as a local test "
                + "server, is trusted by naming that certificate: Trust.certificate(path:), or --trust-cert FILE in the kinship CLI."
        case .notAuthorized: "Wrong address, password or token: the server refused the login (not-authorized)."
        case .noToken(let reason): "There is no access token to log in with: \(reason)"
        case .authenticationFailed(let reason): "Authentication failed: \(reason)"
        case .noUsableMechanism(let offered): "No usable SASL mechanism among \(offered.joined(separator: ", "))."
        case .streamError(let condition, let text): "The server closed the stream: \(condition)\(text.map { " (\($0))" } ?? "")."
        case .malformedStream(let error): "The server sent bad XML: \(error)"
        case .bindFailed(let reason): "Resource binding failed: \(reason)"
        case .stanzaError(let error): "The request failed: \(error)"
        case .noSuchRequest(let jid): "\(jid) has not asked to be your friend; send them a request instead."
        case .disconnected: "Not connected."
        }
    }
}
