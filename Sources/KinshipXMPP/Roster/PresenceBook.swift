/// Each contact's resources and what their presence says, and the availability that follows:
/// available when any resource is available (no `show`, or `chat`), away when all are away,
/// `xa` or `dnd`, offline when none is online.
///
/// Presence is kept for any JID, on the roster or not yet: presence that arrives before the
/// roster is applied when the contact appears.
public struct PresenceBook: Sendable, Equatable {
    /// How available a contact is, over all of their resources.
    public enum Availability: String, Sendable, Hashable {
        /// At least one resource is available (or wants to chat).
        case available
        /// Online, but every resource is away, busy or gone for long.
        case away
        /// No resource is online.
        case offline
    }

    private var resources: [JID: [String: Presence]] = [:]

    /// An empty book: everyone offline.
    public init() {}

    /// Records a presence; returns whether the contact's availability changed.
    @discardableResult
    public mutating func record(_ presence: Presence) -> Bool {
        guard let from = presence.from else { return false }
        let before = availability(of: from)
        let key = from.resource ?? ""
        switch presence.kind {
        case .available:
            resources[from.bare, default: [:]][key] = presence
        case .unavailable, .error:
            if from.resource == nil { resources[from.bare] = nil } else { resources[from.bare]?[key] = nil }
            if resources[from.bare]?.isEmpty == true { resources[from.bare] = nil }
        default:
            return false
        }
        return availability(of: from) != before
    }

    /// Forgets everyone (the connection dropped: nobody's presence is known any more).
    public mutating func clear() { resources.removeAll() }

    /// How available `jid` is: the most available of its online resources, `offline` without any.
    public func availability(of jid: JID) -> Availability {
        guard let online = resources[jid.bare], !online.isEmpty else { return .offline }
        return online.values.contains { $0.show == nil || $0.show == .chat } ? .available : .away
    }

    /// The online resources of a contact with their presence.
    public func resources(of jid: JID) -> [String: Presence] { resources[jid.bare] ?? [:] }

    /// The vCard photo hash (XEP-0153) the contact's resources announce, if any.
    public func photoHash(of jid: JID) -> String? {
        for presence in resources[jid.bare]?.values ?? [:].values {
            if let hash = presence.extensions.first(where: { $0.name == "x" && $0.namespace == Namespace.vcardUpdate })?.child("photo")?.text,
                !hash.isEmpty
            {
                return hash
            }
        }
        return nil
    }
}
