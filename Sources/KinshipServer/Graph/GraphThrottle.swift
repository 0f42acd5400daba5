import HTTPTypes
import NIOConcurrencyHelpers

/// Limits Graph calls per person and app (error `17`) and per app (error `4`) in fixed one-minute
/// windows. Counts live in this process: with several processes each allows the limit, which is
/// what a limit meant to stop runaway clients needs, and costs no database write per call.
final class GraphThrottle: Sendable {
    private struct Window {
        var minute: Int
        var users: [String: Int] = [:]
        var apps: [String: Int] = [:]
    }

    private let limits: ServerConfiguration.GraphLimits
    private let window = NIOLockedValueBox(Window(minute: 0))

    init(limits: ServerConfiguration.GraphLimits) {
        self.limits = limits
    }

    /// Counts a call; throws the Graph error when the caller is over a limit.
    func admit(userID: String, appID: String, now: Int = UnixTime.now()) throws(GraphError) {
        let over: Int? = window.withLockedValue { window in
            let minute = now / 60
            if window.minute != minute { window = Window(minute: minute) }
            let userKey = appID + "/" + userID
            window.users[userKey, default: 0] += 1
            window.apps[appID, default: 0] += 1
            if window.users[userKey]! > limits.perUserPerMinute { return 17 }
            if window.apps[appID]! > limits.perAppPerMinute { return 4 }
            return nil
        }
        guard let code = over else { return }
        throw GraphError(
            code: code,
            message: code == 17 ? "(#17) User request limit reached" : "(#4) Application request limit reached",
            userTitle: "Too many requests", userMessage: "Please wait a minute and try again.", status: .tooManyRequests)
    }
}
