/// The namespace of stanza error conditions.
let stanzaErrorNamespace = "urn:ietf:params:xml:ns:xmpp-stanzas"

/// An `<error/>` in a stanza (RFC 6120 §8.3): a type, a defined condition, optional text.
public struct StanzaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the sender may do about it.
    public enum Kind: String, Sendable, Hashable {
        /// Retry after giving credentials.
        case auth
        /// Do not retry: the error cannot be fixed.
        case cancel
        /// Go on: the condition was only a warning.
        case `continue`
        /// Retry after changing the request.
        case modify
        /// Retry after waiting: the error is temporary.
        case wait
    }

    /// What the sender may do about it.
    public var kind: Kind
    /// The condition's element name, e.g. `item-not-found`, `not-authorized`.
    public var condition: String
    /// Words from the other side, when it sent any.
    public var text: String?

    /// An error from its type, condition and text.
    public init(kind: Kind, condition: String, text: String? = nil) {
        self.kind = kind
        self.condition = condition
        self.text = text
    }

    /// Reads the `<error/>` child of a stanza.
    init?(in stanza: XMLElement) {
        guard let error = stanza.child("error") else { return nil }
        kind = error[attribute: "type"].flatMap(Kind.init(rawValue:)) ?? .cancel
        condition = error.elements.first { $0.namespace == stanzaErrorNamespace && $0.name != "text" }?.name ?? "undefined-condition"
        text = error.child("text", namespace: stanzaErrorNamespace)?.text
    }

    var element: XMLElement {
        var error = XMLElement("error", namespace: clientNamespace, ["type": kind.rawValue])
        error.append(XMLElement(condition, namespace: stanzaErrorNamespace))
        if let text { error.append(XMLElement("text", namespace: stanzaErrorNamespace, children: [.text(text)])) }
        return error
    }

    /// `condition (type): text`.
    public var description: String { "\(condition) (\(kind.rawValue))" + (text.map { ": \($0)" } ?? "") }
}
