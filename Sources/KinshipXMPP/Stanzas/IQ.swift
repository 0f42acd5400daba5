/// An info/query stanza: a request (`get`, `set`) or its answer (`result`, `error`).
public struct IQ: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        case get, set, result, error
    }

    public var kind: Kind
    public var id: String
    public var from: JID?
    public var to: JID?
    /// The request or result payload (`<query xmlns='jabber:iq:roster'/>`, `<vCard/>`, …).
    public var payload: XMLElement?
    public var error: StanzaError?

    public init(kind: Kind, id: String, from: JID? = nil, to: JID? = nil, payload: XMLElement? = nil, error: StanzaError? = nil) {
        self.kind = kind
        self.id = id
        self.from = from
        self.to = to
        self.payload = payload
        self.error = error
    }

    /// Reads an `<iq/>`; `nil` without a valid type or an id.
    public init?(_ element: XMLElement) {
        guard element.name == "iq", let kind = element[attribute: "type"].flatMap(Kind.init(rawValue:)),
            let id = element[attribute: "id"]
        else { return nil }
        let header = StanzaHeader.read(element)
        self.init(
            kind: kind,
            id: id,
            from: header.from,
            to: header.to,
            payload: element.elements.first { $0.name != "error" },
            error: StanzaError(in: element)
        )
    }

    public var element: XMLElement {
        var element = XMLElement(
            "iq",
            namespace: clientNamespace,
            ["type": kind.rawValue, "id": id, "from": from?.description, "to": to?.description]
        )
        if let payload { element.append(payload) }
        if let error { element.append(error.element) }
        return element
    }

    /// An empty `result` answering this request.
    public func result(payload: XMLElement? = nil) -> IQ {
        IQ(kind: .result, id: id, to: from, payload: payload)
    }

    /// An `error` answering this request.
    public func error(_ error: StanzaError) -> IQ {
        IQ(kind: .error, id: id, to: from, error: error)
    }
}
