import Logging

#if canImport(Glibc)
import Glibc

private let openFiles = Int32(RLIMIT_NOFILE.rawValue)
#elseif canImport(Darwin)
import Darwin

private let openFiles = RLIMIT_NOFILE
#endif

/// The process's limit on open files, which bounds how many connections it can hold.
enum OpenFileLimit {
    /// Files kept for the database, logs and everything that is not a connection.
    static let reserve = 256

    /// Raises the soft limit on open files to the hard limit (as Go's runtime does at start), and
    /// returns how many connections the server can hold: `wanted`, or fewer when even the hard
    /// limit leaves no room for them, with a line in the log saying so.
    static func raise(toServe wanted: Int, logger: Logger) -> Int {
        var limit = rlimit()
        guard getrlimit(openFiles, &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(openFiles, &raised) == 0 { limit = raised }
        }
        let available = Int(clamping: limit.rlim_cur) - reserve
        guard available < wanted else { return wanted }
        let allowed = max(available, 16)
        logger.notice(
            "Fewer connections than --max-connections: the open-file limit is lower; raise it with `ulimit -n`",
            metadata: ["open_files": "\(limit.rlim_cur)", "max_connections": "\(allowed)"]
        )
        return allowed
    }
}
