/// Fetched vCards with when they were fetched, and the fetches under way (at most one per JID).
struct VCardCache: Sendable {
    struct Entry: Sendable {
        let card: VCard
        let fetchedAt: ContinuousClock.Instant
    }

    var entries: [JID: Entry] = [:]
    var inFlight: [JID: Task<VCard, any Error>] = [:]
    /// vCard requests sent so far.
    var requestsSent = 0

    /// The cached card, if fetched less than `lifetime` ago.
    func fresh(_ jid: JID, lifetime: Duration) -> VCard? {
        guard let entry = entries[jid], ContinuousClock.now - entry.fetchedAt < lifetime else { return nil }
        return entry.card
    }
}
