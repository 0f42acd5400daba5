/// Why an XML stream was refused. After an error the parser refuses everything, as the stream
/// must be closed.
public enum XMLStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// XMPP forbids this construct (RFC 6120 §11.1).
    public enum Construct: Sendable, Equatable {
        /// `<!DOCTYPE …>`.
        case documentTypeDeclaration
        /// `<!-- … -->`.
        case comment
        /// `<? … ?>` other than the XML declaration at the start.
        case processingInstruction
        /// An entity other than the five predefined ones (`&amp;` …).
        case entityReference(String)
    }

    /// A limit the parser keeps so a peer cannot make it use unbounded memory.
    public enum Limit: Sendable, Equatable {
        /// A stanza larger than this many bytes.
        case stanzaBytes(Int)
        /// Elements nested deeper than this.
        case depth(Int)
        /// More attributes on one element than this.
        case attributes(Int)
        /// A name longer than this many bytes.
        case nameLength(Int)
    }

    /// The bytes are not well-formed XML.
    case malformed(String, offset: Int)
    /// A construct XMPP forbids, at a byte offset.
    case forbidden(Construct, offset: Int)
    /// A limit was exceeded, at a byte offset.
    case limitExceeded(Limit, offset: Int)
    /// The bytes are not UTF-8.
    case invalidUTF8(offset: Int)
    /// A prefix is used without an `xmlns:` declaration in scope.
    case unboundPrefix(String, offset: Int)
    /// The input ended inside a stanza (or before the stream header was complete).
    case truncated

    /// A sentence for the developer, with the byte offset.
    public var description: String {
        switch self {
        case .malformed(let reason, let offset): "Malformed XML at byte \(offset): \(reason)."
        case .forbidden(let construct, let offset):
            switch construct {
            case .documentTypeDeclaration: "A document type declaration (DTD) at byte \(offset); XMPP forbids them."
            case .comment: "An XML comment at byte \(offset); XMPP forbids them."
            case .processingInstruction: "A processing instruction at byte \(offset); XMPP forbids them."
            case .entityReference(let name): "The entity &\(name); at byte \(offset); only the five predefined entities are allowed."
            }
        case .limitExceeded(let limit, let offset):
            switch limit {
            case .stanzaBytes(let maximum): "A stanza longer than \(maximum) bytes at byte \(offset)."
            case .depth(let maximum): "Elements nested deeper than \(maximum) at byte \(offset)."
            case .attributes(let maximum): "An element with more than \(maximum) attributes at byte \(offset)."
            case .nameLength(let maximum): "A name longer than \(maximum) bytes at byte \(offset)."
            }
        case .invalidUTF8(let offset): "Bytes that are not UTF-8 near byte \(offset)."
        case .unboundPrefix(let prefix, let offset): "The prefix \(prefix): at byte \(offset) has no namespace declaration."
        case .truncated: "The stream ended inside a stanza."
        }
    }
}
