/// What an ``XMPPClient`` reports, in order, on its ``XMPPClient/events`` stream.
public enum XMPPClientEvent: Sendable, Equatable {
    /// Logged in (again, after a reconnect) as this full JID.
    case connected(JID)
    /// The connection ended; `nil` when the app disconnected.
    case disconnected(XMPPError?)
    /// Reconnecting after a pause (attempt 1, 2, …).
    case reconnecting(attempt: Int, after: Duration)
    /// A roster population (a fetch) begins.
    case rosterPopulationBegan
    /// One item of the population.
    case rosterItem(RosterItem)
    /// The population ended with `count` items; `fromCache` when the server said the stored
    /// roster is current (an empty versioned result).
    case rosterPopulationEnded(count: Int, fromCache: Bool)
    /// The server pushed a changed item.
    case rosterPushed(RosterItem)
    /// The server pushed a removal.
    case rosterRemoved(JID)
    /// Someone asks to see the user's presence: an incoming friend request.
    case subscriptionRequest(from: JID)
    /// A contact's availability changed.
    case availabilityChanged(JID, PresenceBook.Availability)
    /// A contact announced a new vCard photo; their vCard was fetched again.
    case vCardUpdated(JID)
    /// A message with a body arrived (a chat message from a friend, or one kept for the user
    /// while they were offline).
    case message(Message)
}
