/// An info/query stanza: a request (`get`, `set`) or its answer (`result`, `error`).
public struct IQ: Sendable, Hashable {
    /// Whether the stanza asks or answers.
    public enum Kind: String, Sendable, Hashable {
        /// Asks for information.
        case get
        /// Asks for a change.
        case set
        /// Answers a `get` or `set` that succeeded.
        case result
        /// Answers a `get` or `set` that failed.
        case error
    }

    /// Whether the stanza asks or answers.
    public var kind: Kind
    /// The id that pairs a result or error with its request.
    public var id: String
    /// The sender; the server fills it in for stanzas from the user.
    public var from: JID?
    /// The recipient; `nil` addresses the user's own account or server.
    public var to: JID?
    /// The request or result payload (`<query xmlns='jabber:iq:roster'/>`, `<vCard/>`, …).
    public var payload: XMLElement?
    /// The error of an `error` answer.
    public var error: StanzaError?

    /// A stanza from its fields.
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

    /// The stanza as XML, ready to send.
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
