/// One callback in the outbox, as stored.
public struct CallbackDelivery: Sendable, Equatable, Decodable {
    /// Where a delivery stands.
    public enum Status: String, Sendable {
        case pending, delivered, failed
    }

    public var id: String
    public var appId: String
    public var userId: String
    public var kind: CallbackKind
    /// The URL the app had registered when the callback was written.
    public var url: String
    public var createdAt: Int
    /// After this time (a day after `createdAt`) a failed attempt is the last one.
    public var giveUpAt: Int
    public var nextAttemptAt: Int
    public var attempts: Int
    var claimedBy: String?
    var claimedUntil: Int?
    public var deliveredAt: Int?
    public var failedAt: Int?
    /// The HTTP status of the last answer, if there was one.
    public var lastStatus: Int?
    /// Why the last attempt failed, or what was wrong with a delivered answer.
    public var lastError: String?
    /// Data deletion: where the person can follow the deletion (the app's answer's `url`).
    public var statusUrl: String?
    /// Data deletion: the app's `confirmation_code`.
    public var confirmationCode: String?

    public var status: Status {
        if deliveredAt != nil { return .delivered }
        if failedAt != nil { return .failed }
        return .pending
    }
}
