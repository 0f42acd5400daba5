/// An XMPP address (RFC 7622): `local@domain/resource`, where only the domain is required.
///
/// The domain and local part are compared case-insensitively (kept lowercased); the resource is
/// kept as written.
public struct JID: Sendable, Hashable, Codable, CustomStringConvertible, LosslessStringConvertible {
    /// The part before `@`, if any: the user.
    public let local: String?
    /// The server's domain.
    public let domain: String
    /// The part after `/`, if any: one of the user's connections.
    public let resource: String?

    /// Parses an address; `nil` when it is not one (empty parts or labels, forbidden characters,
    /// parts over 1023 bytes). One trailing dot of the domain is dropped (RFC 7622 §3.2).
    public init?(_ text: String) {
        var rest = Substring(text)
        var resource: String?
        if let slash = rest.firstIndex(of: "/") {
            resource = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
        }
        var local: String?
        if let at = rest.firstIndex(of: "@") {
            local = String(rest[..<at])
            rest = rest[rest.index(after: at)...]
        }
        var domain = String(rest)
        if domain.hasSuffix(".") { domain.removeLast() }
        self.init(local: local, domain: domain, resource: resource)
    }

    /// An address from its parts; `nil` when a part is not allowed.
    public init?(local: String?, domain: String, resource: String? = nil) {
        let forbiddenInLocal: Set<Character> = ["\"", "&", "'", "/", ":", "<", ">", "@", " "]
        guard !domain.isEmpty, domain.utf8.count <= 1023, !domain.contains(where: { $0 == "@" || $0 == "/" || $0.isWhitespace }),
            !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains("..")
        else {
            return nil
        }
        if let local, local.isEmpty || local.utf8.count > 1023 || local.contains(where: forbiddenInLocal.contains) { return nil }
        if let resource, resource.isEmpty || resource.utf8.count > 1023 { return nil }
        self.local = local?.lowercased()
        self.domain = domain.lowercased()
        self.resource = resource
    }

    /// The address without its resource: the account (`local@domain`).
    public var bare: JID { JID(uncheckedLocal: local, domain: domain, resource: nil) }

    /// Whether this is a bare address.
    public var isBare: Bool { resource == nil }

    /// This account with `resource`.
    public func with(resource: String) -> JID? { JID(local: local, domain: domain, resource: resource) }

    /// The JID as written: `local@domain/resource`.
    public var description: String {
        (local.map { "\($0)@" } ?? "") + domain + (resource.map { "/\($0)" } ?? "")
    }

    /// Reads a JID from a JSON string.
    ///
    /// - Throws: `DecodingError` when the string is not a valid JID.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let jid = JID(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(text) is not a JID"))
        }
        self = jid
    }

    /// Writes the JID as a JSON string.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private init(uncheckedLocal local: String?, domain: String, resource: String?) {
        self.local = local
        self.domain = domain
        self.resource = resource
    }
}
