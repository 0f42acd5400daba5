import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program the tests run (prosodyctl, the Prosody instance script, slixmpp), started with
/// `posix_spawn`.
///
/// Not Foundation's `Process`: on Linux with Swift 6.3.1 its `run()` now and then crashes the whole
/// test run in a process with many open descriptors — it reads past `/proc/self/fd` entries
/// (swift-corelibs-foundation #5472) — and a parallel test run holds hundreds of sockets.
struct ChildProcess: Sendable {
    let pid: pid_t

    enum Failure: Error, CustomStringConvertible {
        case spawn(String, errno: Int32)

        var description: String {
            switch self {
            case .spawn(let program, let code): "could not start \(program): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Starts `arguments[0]` (looked up on `PATH`) with `environment` (this process's when `nil`).
    /// Standard input and output come from the descriptors given, `/dev/null` otherwise; standard
    /// error is this process's; no other descriptor is passed on.
    static func spawn(
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: Int32? = nil,
        output: Int32? = nil
    )
        throws -> ChildProcess
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let input {
            posix_spawn_file_actions_adddup2(&actions, input, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let output {
            posix_spawn_file_actions_adddup2(&actions, output, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        _ = closeFrom?(&actions, 3)
        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        let code = withCStrings(arguments) { argv in
            withCStrings(environment) { envp in posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp) }
        }
        guard code == 0 else { throw Failure.spawn(arguments[0], errno: code) }
        return ChildProcess(pid: pid)
    }

    /// Waits for the child to exit on a thread of its own — never one of the few threads every
    /// test shares — and returns its exit code (128 + the signal when a signal ended it; -1 when
    /// it cannot be waited for, so a lost child never reads as a success).
    func exitCode() async -> Int32 {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: waitForExit()) }
        }
    }

    /// Reaps the child in the background once it exits, for a caller that does not wait.
    func reapWhenDone() {
        Thread.detachNewThread { _ = waitForExit() }
    }

    private func waitForExit() -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc module
/// does not declare: the child closes every descriptor from the given one up.
private let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()

/// Runs `body` with `strings` as a NULL-terminated array of C strings.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result) -> Result {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
