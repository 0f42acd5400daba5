import Foundation
import NIOConcurrencyHelpers

/// Where the platform reads the time: expiry of codes, tokens and sessions, rate-limit windows,
/// and every stored timestamp. The server reads the system clock; tests use a ``ManualClock``
/// they move forward instead of sleeping.
public protocol WallClock: Sendable {
    /// Whole seconds since 1970-01-01 00:00 UTC.
    var now: Int { get }
}

/// The system's clock.
public struct SystemClock: WallClock {
    public init() {}

    public var now: Int { Int(Date().timeIntervalSince1970) }
}

/// A clock that stands still until it is moved.
///
/// ```swift
/// let clock = ManualClock()
/// let platform = try await Platform.open(location, clock: clock, logger: logger)
/// clock.advance(by: 2 * 60 * 60)   // every two-hour token has expired now
/// ```
public final class ManualClock: WallClock {
    private let seconds: NIOLockedValueBox<Int>

    /// A clock showing `now`, the system's time by default.
    public init(now: Int = SystemClock().now) {
        seconds = NIOLockedValueBox(now)
    }

    public var now: Int { seconds.withLockedValue { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: Int) {
        precondition(seconds >= 0, "a clock only moves forward")
        self.seconds.withLockedValue { $0 += seconds }
    }
}
