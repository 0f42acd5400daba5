/// Whether and how an ``XMPPClient`` reconnects after the connection drops.
public struct ReconnectPolicy: Sendable, Equatable {
    /// The pause before the first attempt; each further attempt waits twice as long.
    public var initialDelay: Duration
    /// The longest pause between attempts.
    public var maximumDelay: Duration
    /// Attempts before giving up; `nil` for no limit.
    public var maximumAttempts: Int?

    /// A policy that starts at `initialDelay`, doubles up to `maximumDelay`, and stops after `maximumAttempts`
    /// (never, when `nil`).
    public init(initialDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60), maximumAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The pause before `attempt` (1-based): doubling from ``initialDelay`` up to
    /// ``maximumDelay``, with up to a quarter taken off at random so clients do not return in step.
    func delay(before attempt: Int) -> Duration {
        let doubled = initialDelay * (1 << min(attempt - 1, 20))
        let capped = min(doubled, maximumDelay)
        return capped * Double.random(in: 0.75...1)
    }
}
