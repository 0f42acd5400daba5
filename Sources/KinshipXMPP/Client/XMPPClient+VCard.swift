extension XMPPClient {
    /// A contact's vCard: the cached one while fresh, else fetched — once, however many ask at
    /// the same time.
    ///
    /// - Throws: ``XMPPError`` when the client is not connected or the server answers with an error
    ///   (`item-not-found` for a contact without a card).
    public func vCard(of jid: JID) async throws -> VCard {
        let jid = jid.bare
        if let card = vCards.fresh(jid, lifetime: options.vCardLifetime) { return card }
        if let running = vCards.inFlight[jid] { return try await running.value }
        let fetch = Task { () throws -> VCard in
            let answer = try await self.request(IQ(kind: .get, id: "", to: jid, payload: XMLElement("vCard", namespace: Namespace.vcard)))
            return answer.payload.map(VCard.init) ?? VCard()
        }
        vCards.inFlight[jid] = fetch
        vCards.requestsSent += 1
        defer { vCards.inFlight[jid] = nil }
        let card = try await fetch.value
        vCards.entries[jid] = VCardCache.Entry(card: card, fetchedAt: .now)
        return card
    }

    /// How many vCard requests this client has sent.
    public var vCardRequestsSent: Int { vCards.requestsSent }

    /// Publishes the user's own vCard.
    ///
    /// - Throws: ``XMPPError/disconnected`` when the client is not connected, or the error the connection ended
    ///   with. ``XMPPError/stanzaError(_:)`` when the server refuses the card.
    public func updateOwnVCard(_ card: VCard) async throws(XMPPError) {
        _ = try await request(IQ(kind: .set, id: "", payload: card.element))
        if let own = boundJID?.bare { vCards.entries[own] = VCardCache.Entry(card: card, fetchedAt: .now) }
    }

    /// A contact's presence announced a photo hash: a cached card with another photo is fetched
    /// again. Cards never asked for stay unfetched (they are loaded lazily).
    func photoChanged(_ jid: JID, hash: String) async {
        guard let cached = vCards.entries[jid], cached.card.photo?.hash != hash else { return }
        vCards.entries[jid] = nil
        if (try? await vCard(of: jid)) != nil { eventSink.yield(.vCardUpdated(jid)) }
    }
}
