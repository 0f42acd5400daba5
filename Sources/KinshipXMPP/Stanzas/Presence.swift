/// A presence stanza: availability broadcasts and subscription requests and answers.
public struct Presence: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// No `type`: the sender is available.
        case available
        case unavailable, subscribe, subscribed, unsubscribe, unsubscribed, probe, error
    }

    /// How available an available sender is (`<show/>`).
    public enum Show: String, Sendable, Hashable {
        case away, chat, dnd, xa
    }

    public var kind: Kind
    public var id: String?
    public var from: JID?
    public var to: JID?
    public var show: Show?
    public var status: String?
    /// -128…127; negative means "never deliver messages to this resource".
    public var priority: Int
    /// Extension elements (e.g. XEP-0153's vCard photo hash).
    public var extensions: [XMLElement]
    public var error: StanzaError?

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
