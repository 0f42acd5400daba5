/// A JSON value as the Graph API answers it, for requests without a typed model.
public enum GraphValue: Sendable, Hashable, Codable {
    /// JSON `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([GraphValue])
    /// An object.
    case object([String: GraphValue])

    /// Reads any JSON value.
    ///
    /// - Throws: `DecodingError` when the input is not JSON.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([GraphValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: GraphValue].self))
        }
    }

    /// Writes the value as JSON.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The member `key` of an object.
    public subscript(key: String) -> GraphValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    /// The string, when the value is one.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number as an `Int`, when it is a whole number.
    public var int: Int? {
        if case .number(let value) = self, let exact = Int(exactly: value) { exact } else { nil }
    }

    /// The Boolean, when the value is one.
    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    /// The elements, when the value is an array.
    public var array: [GraphValue]? {
        if case .array(let value) = self { value } else { nil }
    }
}
