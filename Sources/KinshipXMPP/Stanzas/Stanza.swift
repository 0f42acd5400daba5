/// The stanzas' namespace on a client-to-server stream.
public let clientNamespace = "jabber:client"

/// A stanza read from or written to the stream.
public enum Stanza: Sendable, Hashable {
    /// An info/query stanza.
    case iq(IQ)
    /// A presence stanza.
    case presence(Presence)
    /// A message stanza.
    case message(Message)

    /// Reads a top-level element of the stream; `nil` when it is not a stanza (features, SASL, …).
    public init?(_ element: XMLElement) {
        guard element.namespace == clientNamespace || element.namespace == nil else { return nil }
        switch element.name {
        case "iq":
            guard let iq = IQ(element) else { return nil }
            self = .iq(iq)
        case "presence": self = .presence(Presence(element))
        case "message": self = .message(Message(element))
        default: return nil
        }
    }

    /// The stanza as XML, ready to send.
    public var element: XMLElement {
        switch self {
        case .iq(let iq): iq.element
        case .presence(let presence): presence.element
        case .message(let message): message.element
        }
    }
}

/// Addressing every stanza has.
struct StanzaHeader {
    static func read(_ element: XMLElement) -> (id: String?, from: JID?, to: JID?) {
        (element[attribute: "id"], element[attribute: "from"].flatMap(JID.init), element[attribute: "to"].flatMap(JID.init))
    }
}
