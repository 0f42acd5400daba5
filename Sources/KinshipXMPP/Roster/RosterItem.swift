/// One contact on the roster (RFC 6121 §2.1.2): address, name, groups and subscription state.
public struct RosterItem: Sendable, Hashable, Codable {
    /// Who sees whose presence.
    public enum Subscription: String, Sendable, Hashable, Codable {
        /// Neither.
        case none
        /// The user sees the contact's presence.
        case to
        /// The contact sees the user's presence.
        case from
        /// Both.
        case both
        /// In a roster push: the item was removed.
        case remove
    }

    /// The contact's bare JID; the roster's key.
    public var jid: JID
    /// The name the user gave the contact (on Kinship Chat, the contact's profile name).
    public var name: String?
    /// The groups the contact is filed under.
    public var groups: [String]
    /// Who sees whose presence.
    public var subscription: Subscription
    /// The user asked to see the contact's presence and the contact has not answered
    /// (`ask="subscribe"`): an outgoing friend request.
    public var isAwaitingApproval: Bool
    /// The user pre-approved the contact's future subscription request (`approved="true"`).
    public var isPreApproved: Bool

    /// An item from its fields; the JID's resource is dropped.
    public init(
        jid: JID,
        name: String? = nil,
        groups: [String] = [],
        subscription: Subscription = .none,
        isAwaitingApproval: Bool = false,
        isPreApproved: Bool = false
    ) {
        self.jid = jid.bare
        self.name = name
        self.groups = groups
        self.subscription = subscription
        self.isAwaitingApproval = isAwaitingApproval
        self.isPreApproved = isPreApproved
    }

    /// A friend, as the reference app decides: any presence subscription, one way or both.
    public var isFriend: Bool { subscription == .both || subscription == .to || subscription == .from }

    /// An outgoing friend request: asked, not answered, and not already seeing their presence.
    public var isOutgoingRequest: Bool { isAwaitingApproval && (subscription == .none || subscription == .from) }

    /// Reads an `<item/>` of a roster query; `nil` without a valid `jid`.
    public init?(_ element: XMLElement) {
        guard element.name == "item", let jid = element[attribute: "jid"].flatMap(JID.init) else { return nil }
        self.init(
            jid: jid,
            name: element[attribute: "name"].flatMap { $0.isEmpty ? nil : $0 },
            groups: element.children("group").map(\.text).filter { !$0.isEmpty },
            subscription: element[attribute: "subscription"].flatMap(Subscription.init(rawValue:)) ?? .none,
            isAwaitingApproval: element[attribute: "ask"] == "subscribe",
            isPreApproved: element[attribute: "approved"] == "true"
        )
    }

    /// The item as a roster `set` sends it (name and groups; the server owns the subscription).
    var setElement: XMLElement {
        var item = XMLElement("item", namespace: Namespace.roster, ["jid": jid.description, "name": name])
        for group in groups { item.append(XMLElement("group", namespace: Namespace.roster, children: [.text(group)])) }
        return item
    }
}
