import NIOConcurrencyHelpers

/// Counts events by key in fixed one-minute windows, in this process.
final class PerMinuteCounter: Sendable {
    private struct Window {
        var minute: Int
        var counts: [String: Int] = [:]
    }

    private let window = NIOLockedValueBox(Window(minute: 0))

    /// Counts one event for each key; returns the counts so far this minute, in the same order.
    func count(_ keys: [String], now: Int) -> [Int] {
        window.withLockedValue { window in
            if window.minute != now / 60 { window = Window(minute: now / 60) }
            return keys.map { key in
                window.counts[key, default: 0] += 1
                return window.counts[key]!
            }
        }
    }
}
