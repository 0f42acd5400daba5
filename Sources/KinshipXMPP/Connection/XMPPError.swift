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
    /// The TLS handshake failed (an untrusted or mismatched certificate, a protocol error).
    case tlsFailed(String)
    /// Wrong user name or password (`not-authorized`).
    case notAuthorized
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
    /// The connection is closed (or was never opened).
    case disconnected

    public var description: String {
        switch self {
        case .connectionRefused(let host, let port): "Connection refused by \(host):\(port); is the XMPP server running?"
        case .unreachable(let reason): "The XMPP server could not be reached: \(reason)"
        case .timedOut(let step): "Timed out while \(step)."
        case .tlsUnavailable: "The server does not offer STARTTLS; not connecting without encryption."
        case .tlsFailed(let reason): "TLS failed: \(reason)"
        case .notAuthorized: "Wrong JID or password (not-authorized)."
        case .authenticationFailed(let reason): "Authentication failed: \(reason)"
        case .noUsableMechanism(let offered): "No usable SASL mechanism among \(offered.joined(separator: ", "))."
        case .streamError(let condition, let text): "The server closed the stream: \(condition)\(text.map { " (\($0))" } ?? "")."
        case .malformedStream(let error): "The server sent bad XML: \(error)"
        case .bindFailed(let reason): "Resource binding failed: \(reason)"
        case .stanzaError(let error): "The request failed: \(error)"
        case .disconnected: "Not connected."
        }
    }
}
