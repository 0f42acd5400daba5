/// A message stanza.
public struct Message: Sendable, Hashable {
    /// What sort of message it is (RFC 6121 §5.2.2).
    public enum Kind: String, Sendable, Hashable {
        /// A message outside a conversation (an email-like note).
        case normal
        /// One message of a one-to-one conversation.
        case chat
        /// A message to a multi-user chat room.
        case groupchat
        /// An alert that expects no reply.
        case headline
        /// A message the server or recipient bounced, with its error.
        case error
    }

    /// What sort of message it is.
    public var kind: Kind
    /// The stanza id, when the sender gave one.
    public var id: String?
    /// The sender.
    public var from: JID?
    /// The recipient.
    public var to: JID?
    /// The text.
    public var body: String?
    /// The topic, when the sender gave one.
    public var subject: String?
    /// The conversation thread the message belongs to.
    public var thread: String?
    /// Extension elements (chat states, delays, archive results, …).
    public var extensions: [XMLElement]

    /// A message from its fields.
    public init(
        kind: Kind = .chat,
        id: String? = nil,
        from: JID? = nil,
        to: JID? = nil,
        body: String? = nil,
        subject: String? = nil,
        thread: String? = nil,
        extensions: [XMLElement] = []
    ) {
        self.kind = kind
        self.id = id
        self.from = from
        self.to = to
        self.body = body
        self.subject = subject
        self.thread = thread
        self.extensions = extensions
    }

    /// Reads a `<message/>` element; unknown children are kept in ``extensions``.
    public init(_ element: XMLElement) {
        let header = StanzaHeader.read(element)
        let ownChildren: Set<String> = ["body", "subject", "thread"]
        self.init(
            kind: element[attribute: "type"].flatMap(Kind.init(rawValue:)) ?? .normal,
            id: header.id,
            from: header.from,
            to: header.to,
            body: element.child("body")?.text,
            subject: element.child("subject")?.text,
            thread: element.child("thread")?.text,
            extensions: element.elements.filter { !($0.namespace == clientNamespace && ownChildren.contains($0.name)) }
        )
    }

    /// The stanza as XML, ready to send.
    public var element: XMLElement {
        var element = XMLElement(
            "message",
            namespace: clientNamespace,
            ["type": kind.rawValue, "id": id, "from": from?.description, "to": to?.description]
        )
        for (name, value) in [("subject", subject), ("body", body), ("thread", thread)] {
            if let value { element.append(XMLElement(name, namespace: clientNamespace, children: [.text(value)])) }
        }
        for child in extensions { element.append(child) }
        return element
    }
}
