/// A message stanza.
public struct Message: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case normal, chat, groupchat, headline, error
    }

    public var kind: Kind
    public var id: String?
    public var from: JID?
    public var to: JID?
    public var body: String?
    public var subject: String?
    public var thread: String?
    public var extensions: [XMLElement]

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
