/// The user's roster: items by bare JID, with the version the server gave it (XEP-0237).
///
/// Items are de-duplicated by bare JID: a later item replaces an earlier one.
public struct Roster: Sendable, Equatable, Codable {
    /// The version of the last result or push applied; `nil` when the server does not version.
    public private(set) var version: String?
    /// The contacts, by bare JID.
    public private(set) var items: [JID: RosterItem]

    /// A roster holding `items`, at `version`.
    public init(items: [RosterItem] = [], version: String? = nil) {
        self.version = version
        self.items = Dictionary(items.map { ($0.jid, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// The item for `jid` (any resource is ignored).
    public subscript(jid: JID) -> RosterItem? { items[jid.bare] }

    /// Friends: items with a subscription one way or both.
    public var friends: [RosterItem] { items.values.filter(\.isFriend) }

    /// Outgoing friend requests (see ``RosterItem/isOutgoingRequest``).
    public var outgoingRequests: [RosterItem] { items.values.filter(\.isOutgoingRequest) }

    /// Applies a full roster result: the server's items and version replace these. A result
    /// without a version (the server stopped versioning) clears the stored one, which no longer
    /// describes these items: kept, it would make the next versioned login trust a stale cache.
    public mutating func replace(with items: [RosterItem], version: String?) {
        self = Roster(items: items.filter { $0.subscription != .remove }, version: version)
    }

    /// Applies a roster push: the item is added or replaced, or removed for
    /// `subscription="remove"`. Returns the item before the push.
    @discardableResult
    public mutating func apply(push item: RosterItem, version: String?) -> RosterItem? {
        if let version { self.version = version }
        if item.subscription == .remove { return items.removeValue(forKey: item.jid) }
        return items.updateValue(item, forKey: item.jid)
    }
}
