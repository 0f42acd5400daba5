import ArgumentParser
import KinshipServer
import Logging
import NIOPosix

extension ThreadScheduling: ExpressibleByArgument {}

/// Puts SwiftNIO's event loops under the chosen ``ThreadScheduling`` (the database's threads take
/// it as they start) and says how it went.
enum ThreadSchedulingReport {
    static func apply(_ scheduling: ThreadScheduling, logger: Logger) async {
        guard scheduling != .inherited else { return }
        if await scheduling.apply(to: .singleton) {
            logger.info("Event loops and database threads scheduled", metadata: ["thread_scheduling": "\(scheduling.rawValue)"])
        } else {
            logger.warning(
                "The system refused the thread scheduling policy; the event loops and database threads keep the policy the process started with. Set --thread-scheduling inherited to silence this.",
                metadata: ["thread_scheduling": "\(scheduling.rawValue)"]
            )
        }
    }
}
