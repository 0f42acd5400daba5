import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, with SIGTERM and SIGINT back at their default
/// actions and no signal blocked. `kinship serve` ignores those signals (its service group
/// catches them to shut down gracefully), and a child started by Foundation's `Process` would
/// inherit that and never stop when asked; `Process` also now and then crashes a process with
/// many open descriptors on Linux (swift-corelibs-foundation #5472).
struct ChildProcess: Sendable {
    let pid: pid_t

    /// Starts `executable` with `arguments`, its output and errors discarded.
    static func spawn(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGTERM)
        sigaddset(&defaults, SIGINT)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else { throw ChatSupervisorError.cannotStart(String(cString: strerror(result))) }
        return ChildProcess(pid: pid)
    }

    /// Its exit status once it has ended (reaping it), `nil` while it runs. A child killed by a
    /// signal reports 128 + the signal, as shells do.
    func exitStatus() -> Int32? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Blocks until it ends; its exit status. For short jobs before the server runs.
    func waitUntilExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Waits for it to end, looking every `interval`.
    func exit(checkingEvery interval: Duration = .milliseconds(200)) async -> Int32 {
        while true {
            if let status = exitStatus() { return status }
            try? await Task.sleep(for: interval)
        }
    }

    /// Asks it to stop (SIGTERM).
    func terminate() {
        kill(pid, SIGTERM)
    }
}
