import HTTPTypes
import KinshipCore

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

    /// Counts a person's call through an app; throws the Graph error when either is over a limit.
    func admit(userID: String, appID: String) throws(GraphError) {
        let counts = counter.count([appID + "/" + userID, appID], now: clock.now)
        if counts[0] > limits.perUserPerMinute { throw Self.refusal(code: GraphErrorCode.userRateLimited) }
        if counts[1] > limits.perAppPerMinute { throw Self.refusal(code: GraphErrorCode.appRateLimited) }
    }

    /// Counts a call an app makes with its app access token, against the app's limit.
    func admit(appID: String) throws(GraphError) {
        if counter.count([appID], now: clock.now)[0] > limits.perAppPerMinute { throw Self.refusal(code: GraphErrorCode.appRateLimited) }
    }

    private static func refusal(code: Int) -> GraphError {
        GraphError(
            code: code,
            message: code == GraphErrorCode.userRateLimited ? "(#17) User request limit reached" : "(#4) Application request limit reached",
            userTitle: "Too many requests",
            userMessage: "Please wait a minute and try again.",
            status: .tooManyRequests
        )
    }
}
