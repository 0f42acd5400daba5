/// An XML element of the stream: a stanza or part of one, with its namespace resolved.
public struct XMLElement: Sendable, Hashable {
    /// The local name, without prefix (`iq`, `query`, `item`).
    public var name: String
    /// The namespace URI the element is in, resolved from `xmlns` declarations.
    public var namespace: String?
    /// The attributes as written (`xml:lang` keeps its prefix), without namespace declarations.
    public var attributes: [XMLAttribute]
    /// The child elements and text, in order.
    public var children: [XMLNode]

    /// An element from its parts.
    public init(_ name: String, namespace: String? = nil, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
        self.name = name
        self.namespace = namespace
        self.attributes = attributes
        self.children = children
    }

    /// An element with attributes given in order as pairs; `nil` values are left out.
    public init(_ name: String, namespace: String? = nil, _ attributes: KeyValuePairs<String, String?>, children: [XMLNode] = []) {
        self.init(
            name,
            namespace: namespace,
            attributes: attributes.compactMap { pair in pair.value.map { XMLAttribute(pair.key, $0) } },
            children: children
        )
    }

    /// The value of the attribute named `name`.
    public subscript(attribute name: String) -> String? {
        get { attributes.first { $0.name == name }?.value }
        set {
            attributes.removeAll { $0.name == name }
            if let newValue { attributes.append(XMLAttribute(name, newValue)) }
        }
    }

    /// The child elements.
    public var elements: [XMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// The first child element named `name` (in `namespace`, when given).
    public func child(_ name: String, namespace: String? = nil) -> XMLElement? {
        for case .element(let element) in children where element.name == name && (namespace == nil || element.namespace == namespace) {
            return element
        }
        return nil
    }

    /// Every child element named `name` (in `namespace`, when given).
    public func children(_ name: String, namespace: String? = nil) -> [XMLElement] {
        elements.filter { $0.name == name && (namespace == nil || $0.namespace == namespace) }
    }

    /// The element's own text, its text children joined.
    public var text: String {
        var result = ""
        for case .text(let text) in children { result += text }
        return result
    }

    /// Appends a child element.
    public mutating func append(_ element: XMLElement) { children.append(.element(element)) }

    /// Appends text.
    public mutating func append(text: String) { children.append(.text(text)) }
}

/// An attribute: its name as written and its value, unescaped.
public struct XMLAttribute: Sendable, Hashable {
    /// The attribute's name, with its prefix if it has one.
    public var name: String
    /// The value, unescaped.
    public var value: String

    /// The attribute `name="value"`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// A child of an element: another element, or text.
public enum XMLNode: Sendable, Hashable {
    /// A child element.
    case element(XMLElement)
    /// Text, unescaped.
    case text(String)
}
