/// A presence stanza: availability broadcasts and subscription requests and answers.
public struct Presence: Sendable, Hashable {
    /// What the presence says (RFC 6121 §4.7.1).
    public enum Kind: String, Sendable, Hashable {
        /// No `type`: the sender is available.
        case available
        /// The sender went offline.
        case unavailable
        /// The sender asks to see the recipient's presence: a friend request.
        case subscribe
        /// The sender lets the recipient see its presence: a request accepted.
        case subscribed
        /// The sender no longer wants to see the recipient's presence.
        case unsubscribe
        /// The sender no longer lets the recipient see its presence (or declines a request).
        case unsubscribed
        /// A server asks for a contact's current presence.
        case probe
        /// A presence stanza bounced, with its error.
        case error
    }

    /// How available an available sender is (`<show/>`).
    public enum Show: String, Sendable, Hashable {
        /// Away for a short while.
        case away
        /// Free to chat.
        case chat
        /// Do not disturb.
        case dnd
        /// Away for a long while ("extended away").
        case xa
    }

    /// What the presence says.
    public var kind: Kind
    /// The stanza id, when the sender gave one.
    public var id: String?
    /// The sender.
    public var from: JID?
    /// The recipient; `nil` broadcasts to everyone subscribed.
    public var to: JID?
    /// How available an available sender is; `nil` means plainly available.
    public var show: Show?
    /// A sentence the sender wrote ("In a meeting").
    public var status: String?
    /// -128…127; negative means "never deliver messages to this resource".
    public var priority: Int
    /// Extension elements (e.g. XEP-0153's vCard photo hash).
    public var extensions: [XMLElement]
    /// The error of an `error` presence.
    public var error: StanzaError?

    /// A presence from its fields.
    public init(
        kind: Kind = .available,
        id: String? = nil,
        from: JID? = nil,
        to: JID? = nil,
        show: Show? = nil,
        status: String? = nil,
        priority: Int = 0,
        extensions: [XMLElement] = [],
        error: StanzaError? = nil
    ) {
        self.kind = kind
        self.id = id
        self.from = from
        self.to = to
        self.show = show
        self.status = status
        self.priority = priority
        self.extensions = extensions
        self.error = error
    }

    /// Reads a `<presence/>` element; unknown children are kept in ``extensions``.
    public init(_ element: XMLElement) {
        let header = StanzaHeader.read(element)
        let ownChildren: Set<String> = ["show", "status", "priority", "error"]
        self.init(
            kind: element[attribute: "type"].map { Kind(rawValue: $0) ?? .error } ?? .available,
            id: header.id,
            from: header.from,
            to: header.to,
            show: element.child("show").flatMap { Show(rawValue: $0.text) },
            status: element.child("status")?.text,
            priority: element.child("priority").flatMap { Int($0.text) }.map { min(127, max(-128, $0)) } ?? 0,
            extensions: element.elements.filter { !($0.namespace == clientNamespace && ownChildren.contains($0.name)) },
            error: StanzaError(in: element)
        )
    }

    /// The stanza as XML, ready to send.
    public var element: XMLElement {
        var element = XMLElement(
            "presence",
            namespace: clientNamespace,
            ["type": kind == .available ? nil : kind.rawValue, "id": id, "from": from?.description, "to": to?.description]
        )
        if let show { element.append(XMLElement("show", namespace: clientNamespace, children: [.text(show.rawValue)])) }
        if let status { element.append(XMLElement("status", namespace: clientNamespace, children: [.text(status)])) }
        if priority != 0 { element.append(XMLElement("priority", namespace: clientNamespace, children: [.text(String(priority))])) }
        for child in extensions { element.append(child) }
        if let error { element.append(error.element) }
        return element
    }
}
