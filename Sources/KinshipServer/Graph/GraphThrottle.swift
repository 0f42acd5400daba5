import HTTPTypes

/// Limits Graph calls per person and app (error `17`) and per app (error `4`) in fixed one-minute
/// windows. Counts live in this process: with several processes each allows the limit, which is
/// what a limit meant to stop runaway clients needs, and costs no database write per call.
final class GraphThrottle: Sendable {
    private let limits: ServerConfiguration.GraphLimits
    private let clock: any WallClock
    private let counter = PerMinuteCounter()

    init(limits: ServerConfiguration.GraphLimits, clock: any WallClock) {
        self.limits = limits
        self.clock = clock
    }

    /// Counts a call; throws the Graph error when the caller is over a limit.
    func admit(userID: String, appID: String) throws(GraphError) {
        let counts = counter.count([appID + "/" + userID, appID], now: clock.now)
        let code: Int
        if counts[0] > limits.perUserPerMinute {
            code = 17
        } else if counts[1] > limits.perAppPerMinute {
            code = 4
        } else {
            return
        }
        throw GraphError(
            code: code,
            message: code == 17 ? "(#17) User request limit reached" : "(#4) Application request limit reached",
            userTitle: "Too many requests", userMessage: "Please wait a minute and try again.", status: .tooManyRequests)
    }
}
