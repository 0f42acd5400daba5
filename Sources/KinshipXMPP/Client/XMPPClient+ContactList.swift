import KinshipContacts

extension XMPPClient {
    /// The title of the pinned section that holds friend requests, in and out.
    public static let requestsSection = "Requests"

    /// The roster as a contact list: friends in sections by first letter (`#` last), friend
    /// requests (incoming, and outgoing not yet answered) in a pinned leading section, each with
    /// their availability. `payload` carries `jid`, `subscription` and `request` (`incoming` or
    /// `outgoing`) for the app.
    public func contactList(sortOrder: SortOrder = .firstName) -> ContactList {
        var contacts: [Contact] = []
        for item in roster.items.values where item.isFriend || item.isOutgoingRequest {
            contacts.append(
                contact(
                    for: item.jid,
                    name: item.name,
                    subscription: item.subscription.rawValue,
                    request: item.isOutgoingRequest ? "outgoing" : nil
                )
            )
        }
        for jid in incomingRequests where roster[jid]?.isFriend != true || roster[jid]?.subscription == .to {
            contacts.append(
                contact(
                    for: jid,
                    name: roster[jid]?.name ?? requesterNames[jid],
                    subscription: roster[jid]?.subscription.rawValue ?? "none",
                    request: "incoming"
                )
            )
        }
        return ContactList(contacts, sortOrder: sortOrder, pinnedSections: [Self.requestsSection])
    }

    private func contact(for jid: JID, name: String?, subscription: String, request: String?) -> Contact {
        let card = vCards.entries[jid]?.card
        let displayName = name ?? card?.fullName ?? card?.nickname ?? jid.local ?? jid.description
        var payload = ["jid": jid.description, "subscription": subscription]
        payload["request"] = request
        return Contact(
            id: jid.description,
            name: displayName,
            firstName: name == nil ? card?.givenName : nil,
            lastName: name == nil ? card?.familyName : nil,
            searchKeys: [jid.description],
            availability: availability(of: jid),
            pinnedSection: request == nil ? nil : Self.requestsSection,
            payload: payload
        )
    }

    private func availability(of jid: JID) -> Availability {
        switch presence.availability(of: jid) {
        case .available: .available
        case .away: .away
        case .offline: .offline
        }
    }
}
