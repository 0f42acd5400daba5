import Foundation

/// CPU time another process's threads have used so far, summed by what the threads do, read from
/// /proc/PID/task/TID/stat and comm: where a `kinship serve`'s CPU per exchange goes.
enum ThreadCPU {
    /// The kinds of thread a `kinship serve` runs, as the benchmark reports them.
    enum Kind: String, CaseIterable, Sendable {
        case eventLoops = "SwiftNIO event loops (HTTP in and out)"
        case workers = "Swift concurrency workers (handlers, signing)"
        case writer = "SQLite writer"
        case readers = "SQLite readers"
        case other = "other threads"

        /// The kind of a thread named `name` (Linux keeps the first 15 bytes of a thread's name).
        init(threadName name: String) {
            if name.hasPrefix("NIO-") {
                self = .eventLoops
            } else if name.hasSuffix("default-qos") || name.hasSuffix("qos.overcommit") {
                self = .workers
            } else if name == "sqlite-writer" {
                self = .writer
            } else if name.hasPrefix("sqlite-reader") {
                self = .readers
            } else {
                self = .other
            }
        }
    }

    /// CPU seconds by thread (id → kind and seconds), for taking differences.
    typealias Sample = [String: (kind: Kind, seconds: Double)]

    /// The CPU each live thread of `pid` has used so far.
    static func sample(_ pid: Int32) -> Sample {
        let tasks = "/proc/\(pid)/task"
        var sample: Sample = [:]
        for thread in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(thread)/comm", encoding: .utf8),
                let seconds = ProcessCPU.fromStat("\(tasks)/\(thread)/stat")
            else { continue }
            sample[thread] = (Kind(threadName: name.trimmingCharacters(in: .whitespacesAndNewlines)), seconds)
        }
        return sample
    }

    /// CPU seconds each kind of thread used between `before` and `after` (threads that ended in
    /// between are left out; threads that started count from zero).
    static func used(from before: Sample, to after: Sample) -> [Kind: Double] {
        var used: [Kind: Double] = [:]
        for (thread, now) in after {
            used[now.kind, default: 0] += now.seconds - (before[thread]?.seconds ?? 0)
        }
        return used
    }
}
