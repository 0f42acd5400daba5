extension XMPPClient {
    /// Fetches the roster (RFC 6121 §2.1.3), with the stored version when the server versions
    /// rosters: an unchanged roster costs an empty result, which keeps the stored one.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with.
    public func fetchRoster() async throws(XMPPError) {
        guard let connection else { throw .disconnected }
        var query = XMLElement("query", namespace: Namespace.roster)
        if await connection.supportsRosterVersioning { query[attribute: "ver"] = roster.version ?? "" }
        let result = try await request(IQ(kind: .get, id: "", payload: query))
        eventSink.yield(.rosterPopulationBegan)
        let fromCache: Bool
        let items: [RosterItem]
        if let payload = result.payload, payload.name == "query", payload.namespace == Namespace.roster {
            items = payload.children("item").compactMap(RosterItem.init)
            roster.replace(with: items, version: payload[attribute: "ver"])
            fromCache = false
        } else {
            items = Array(roster.items.values)
            fromCache = true
        }
        for item in items where item.subscription != .remove { eventSink.yield(.rosterItem(item)) }
        eventSink.yield(.rosterPopulationEnded(count: roster.items.count, fromCache: fromCache))
        await saveRoster()
    }

    /// A roster push from the server: applied, acknowledged, reported. Pushes from anyone but
    /// the user's own account are refused (RFC 6121 §2.1.6).
    func applyPush(_ iq: IQ, query: XMLElement) async {
        if let from = iq.from, from.bare != configuration.jid.bare {
            try? await send(.iq(iq.error(StanzaError(kind: .cancel, condition: "service-unavailable"))))
            return
        }
        for item in query.children("item").compactMap(RosterItem.init) {
            roster.apply(push: item, version: query[attribute: "ver"])
            if item.subscription == .remove {
                eventSink.yield(.rosterRemoved(item.jid))
            } else {
                eventSink.yield(.rosterPushed(item))
            }
            if item.subscription == .from || item.subscription == .both { incomingRequests.remove(item.jid) }
        }
        try? await send(.iq(iq.result()))
        await saveRoster()
    }

    private func saveRoster() async {
        try? await options.rosterStore.save(roster, for: configuration.jid)
    }
}
