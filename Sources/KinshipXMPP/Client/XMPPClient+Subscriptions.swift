extension XMPPClient {
    /// Sends a friend request: the contact goes on the roster and is asked for their presence.
    ///
    /// - Parameters:
    ///   - jid: The contact's address.
    ///   - name: The name to file the contact under.
    ///   - groups: Roster groups to put the contact in.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` when the server refuses the roster change.
    public func add(_ jid: JID, name: String? = nil, groups: [String] = []) async throws(XMPPError) {
        try await setRosterItem(RosterItem(jid: jid, name: name, groups: groups))
        try await send(.presence(Presence(kind: .subscribe, to: jid.bare)))
    }

    /// Accepts an incoming request; `subscribeBack` also asks for the contact's presence, so the
    /// friendship goes both ways.
    ///
    /// A request the client has not seen is waited for up to `patience` (servers resend waiting
    /// requests after the initial presence); accepting someone who never asked would send them a
    /// request of the user's own instead, so it throws.
    /// - Throws: ``XMPPError/noSuchRequest(_:)`` when `jid` has not asked.
    public func accept(_ jid: JID, subscribeBack: Bool = true, patience: Duration = .seconds(2)) async throws(XMPPError) {
        let deadline = ContinuousClock.now + patience
        while !incomingRequests.contains(jid.bare), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        guard incomingRequests.contains(jid.bare) else { throw .noSuchRequest(jid.bare) }
        try await send(.presence(Presence(kind: .subscribed, to: jid.bare)))
        incomingRequests.remove(jid.bare)
        if subscribeBack, roster[jid]?.subscription != .to, roster[jid]?.subscription != .both {
            try await send(.presence(Presence(kind: .subscribe, to: jid.bare)))
        }
    }

    /// Refuses an incoming request.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func reject(_ jid: JID) async throws(XMPPError) {
        try await send(.presence(Presence(kind: .unsubscribed, to: jid.bare)))
        incomingRequests.remove(jid.bare)
    }

    /// Withdraws a request the contact has not answered.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func cancelRequest(_ jid: JID) async throws(XMPPError) {
        try await send(.presence(Presence(kind: .unsubscribe, to: jid.bare)))
    }

    /// Approves a contact's request before it arrives (RFC 6121 §3.4).
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func preApprove(_ jid: JID) async throws(XMPPError) {
        try await send(.presence(Presence(kind: .subscribed, to: jid.bare)))
    }

    /// Removes a friend: the item and both subscriptions go (`subscription="remove"`).
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` when the server refuses the roster change.
    public func remove(_ jid: JID) async throws(XMPPError) {
        let item = XMLElement("item", namespace: Namespace.roster, ["jid": jid.bare.description, "subscription": "remove"])
        _ = try await request(IQ(kind: .set, id: "", payload: XMLElement("query", namespace: Namespace.roster, children: [.element(item)])))
        incomingRequests.remove(jid.bare)
    }

    /// Renames a contact or changes their groups.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` when the server refuses the change.
    public func setRosterItem(_ item: RosterItem) async throws(XMPPError) {
        _ = try await request(
            IQ(kind: .set, id: "", payload: XMLElement("query", namespace: Namespace.roster, children: [.element(item.setElement)]))
        )
    }

    /// Presence from a contact: availability, subscription requests, and vCard photo changes.
    func handle(_ stanza: Presence) async {
        guard let from = stanza.from else { return }
        switch stanza.kind {
        case .subscribe:
            if let nick = stanza.extensions.first(where: { $0.name == "nick" && $0.namespace == Namespace.nick })?.text, !nick.isEmpty {
                requesterNames[from.bare] = nick
            }
            let isNew = incomingRequests.insert(from.bare).inserted
            if options.autoAcceptKnownContacts, roster[from] != nil {
                try? await accept(from, subscribeBack: false)
            } else if isNew {
                eventSink.yield(.subscriptionRequest(from: from.bare))
            }
        case .unsubscribe:
            incomingRequests.remove(from.bare)
        case .available, .unavailable, .error:
            let hashBefore = presence.photoHash(of: from)
            if presence.record(stanza) { eventSink.yield(.availabilityChanged(from.bare, presence.availability(of: from))) }
            if let hash = presence.photoHash(of: from), hash != hashBefore { await photoChanged(from.bare, hash: hash) }
        case .subscribed, .unsubscribed, .probe:
            break
        }
    }
}
