import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// CPU time (user and system) a process has used so far, in seconds.
enum ProcessCPU {
    /// This process, from getrusage.
    static func own() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Another process, from /proc/PID/stat.
    static func of(_ pid: Int32) -> Double {
        fromStat("/proc/\(pid)/stat") ?? 0
    }

    /// The CPU time in a /proc `stat` file of a process or thread (fields 14 and 15, in clock
    /// ticks), or `nil` when it cannot be read (the process or thread has ended).
    static func fromStat(_ path: String) -> Double? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1e6
    }
}
