/// A presence subscription a chat client sends (RFC 6121 §3) — or a roster item it removes —
/// and what it does to the Kinship friend list, which is the roster.
enum ChatSubscription: String, Sendable, CaseIterable {
    /// "I want to see their presence": a friend request, or accepting theirs.
    case subscribe
    /// "They may see mine": accepting their request; nothing when there is none.
    case subscribed
    /// "I no longer want theirs": unfriending, or withdrawing my request.
    case unsubscribe
    /// "They may no longer see mine": declining their request, or unfriending.
    case unsubscribed
    /// The contact taken off the roster: unfriending and dropping requests either way.
    case remove

    /// Applies what `user` sent about `contact` to the friend list.
    /// - Throws: ``AccountError/unknownUser(_:)`` when `contact` is not a Kinship person,
    ///   ``AccountError/invalid(_:)`` when it is `user`.
    func apply(from user: String, about contact: String, to friends: FriendStore) async throws {
        switch self {
        case .subscribe:
            _ = try await friends.sendRequest(from: user, to: contact)
        case .subscribed:
            try await Self.ignoringMissing { try await friends.accept(requestFrom: contact, to: user) }
        case .unsubscribe:
            if try await friends.areFriends(user, contact) {
                try await friends.unfriend(user, contact)
            } else {
                try await Self.ignoringMissing { try await friends.dropRequest(from: user, to: contact) }
            }
        case .unsubscribed:
            if try await friends.areFriends(user, contact) {
                try await friends.unfriend(user, contact)
            } else {
                try await Self.ignoringMissing { try await friends.dropRequest(from: contact, to: user) }
            }
        case .remove:
            try await friends.unfriend(user, contact)
            try await Self.ignoringMissing { try await friends.dropRequest(from: user, to: contact) }
            try await Self.ignoringMissing { try await friends.dropRequest(from: contact, to: user) }
        }
    }

    /// Runs an answer to a request, which changes nothing when the request is not there (RFC 6121
    /// has the server ignore a subscription stanza with nothing to act on).
    private static func ignoringMissing(_ change: () async throws -> Void) async throws {
        do {
            try await change()
        } catch is FriendRequestError {
            return
        }
    }
}
