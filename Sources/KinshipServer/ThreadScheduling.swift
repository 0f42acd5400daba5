import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// How the kernel schedules the server's threads that wait for work most of the time: SwiftNIO's
/// event loops and the SQLite connections' threads.
///
/// With the kernel's default policy, each of them preempts whatever runs when it wakes — on a busy
/// server, a handler signing an id_token — only to hand the work on and sleep again: about four
/// context switches per code exchange, each costing the preempted work its caches. `SCHED_BATCH`
/// (Linux) keeps their fair share of the processors but lets them wait for the running thread's
/// turn to end, so each wake-up finds more to do: "workloads that want a deterministic scheduling
/// policy without interactivity causing extra preemptions (between the workload's tasks)", in the
/// man page's words.
///
/// Measured on 2 cores, `SCHED_BATCH` against the default: a code exchange took 594–650 µs of CPU
/// instead of 681–688 and 2,416–2,575 ran a second instead of 2,205, while `/me` answered under
/// that load with a p99 of 7.4–7.8 ms instead of 7.9–8.9; `/me` alone at 53,000 requests a second
/// was unchanged. The price is paid under long bursts of CPU: while logins kept both cores busy with
/// bcrypt, a friend request's median went from 0.6 to 5.0 ms (p99 about the same), as each of its
/// hand-overs waited for a bcrypt turn to end — a few milliseconds more while logins themselves took
/// seconds. `kinship serve` batch-schedules by default; the library leaves threads as they started
/// unless asked.
public enum ThreadScheduling: String, Sendable, CaseIterable {
    /// As the process was started: the kernel's default, or what systemd's `CPUSchedulingPolicy=`
    /// or `chrt` chose.
    case inherited
    /// `SCHED_BATCH` on Linux; elsewhere as ``inherited``, as the policy does not exist there.
    case batch

    /// Applies the policy to the calling thread. `false` when the system has no such policy or
    /// refused it (a container whose seccomp profile forbids `sched_setscheduler`, say).
    @discardableResult
    public func applyToCurrentThread() -> Bool {
        guard self == .batch else { return true }
        #if os(Linux)
        var parameters = sched_param()
        parameters.sched_priority = 0
        // Linux's SCHED_BATCH, which Glibc's module leaves out of <sched.h>.
        return sched_setscheduler(0, 3, &parameters) == 0
        #else
        return false
        #endif
    }

    /// Applies the policy to every event loop thread of `group`; `false` when any refused it.
    public func apply(to group: MultiThreadedEventLoopGroup) async -> Bool {
        var applied = true
        for loop in group.makeIterator() {
            applied = (try? await loop.submit { applyToCurrentThread() }.get()) == true && applied
        }
        return applied
    }
}
