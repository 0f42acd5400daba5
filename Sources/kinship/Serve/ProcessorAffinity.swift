import Foundation
import NIOCore

/// The processors `kinship serve` may run on, and SwiftNIO's event loops sized to them.
///
/// SwiftNIO counts the machine's processors, or those its container (cgroup) allows, but not the
/// process's CPU affinity: under `taskset -c 0`, systemd's `CPUAffinity=` or `numactl`, a server
/// pinned to one processor of two ran two event loops on it, which took turns on that processor
/// (measured: `/me` at 50% load had its p99 at 3.7–6.9 ms with two loops, 2.5–4.5 ms with one).
enum ProcessorAffinity {
    /// Event loops to run, and the processors SwiftNIO counts (the machine's, or its container's),
    /// which it would have run one on each of.
    struct Sizing {
        let eventLoops: Int
        let processors: Int
    }

    /// Runs one event loop per allowed processor when the affinity allows fewer than SwiftNIO
    /// counts; call before anything uses SwiftNIO's shared event loops. Returns the sizing made, or
    /// `nil` when SwiftNIO's own count stands (nothing is pinned, the system does not say, or
    /// `NIO_SINGLETON_GROUP_LOOP_COUNT` names the count).
    static func sizeEventLoops() -> Sizing? {
        guard ProcessInfo.processInfo.environment["NIO_SINGLETON_GROUP_LOOP_COUNT"] == nil,
            let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let allowed = allowedProcessors(status: status),
            (1..<System.coreCount).contains(allowed)
        else { return nil }
        NIOSingletons.groupLoopCountSuggestion = allowed
        return Sizing(eventLoops: allowed, processors: System.coreCount)
    }

    /// How many processors the `Cpus_allowed_list` line of a Linux `/proc/PID/status` names
    /// (`0-3,8,10-11` names 7), or `nil` when it has none or cannot be read.
    static func allowedProcessors(status: String) -> Int? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return nil }
        var count = 0
        for range in line.dropFirst("Cpus_allowed_list:".count).split(separator: ",") {
            let bounds = range.split(separator: "-").map { Int($0.trimmingCharacters(in: .whitespaces)) }
            switch bounds.count {
            case 1:
                guard bounds[0] != nil else { return nil }
                count += 1
            case 2:
                guard let low = bounds[0], let high = bounds[1], low <= high else { return nil }
                count += high - low + 1
            default:
                return nil
            }
        }
        return count > 0 ? count : nil
    }
}
