import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of its own for one SQLite connection, and the Swift executor that runs tasks on it.
///
/// A transaction's body runs here from its first statement to its last (the pool makes this
/// thread the task's executor preference for the body), so each statement is a plain call into
/// SQLite on the thread that owns the connection: no thread hop per statement, and a statement that
/// waits for the disk or for another process's lock holds this thread, never one of Swift's
/// cooperative threads.
package final class SQLiteThread: @unchecked Sendable {
    /// Guards `jobs`, `stopping` and `ended`; signalled when a job arrives or the thread should end.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false
    /// Whether the thread has ended: a job that comes afterwards runs on a thread of its own.
    private var ended = false
    /// The thread's identity, known once it runs.
    private var identity: pthread_t?

    /// Starts the thread, named `name` (at most 15 bytes are shown) for debuggers and `top -H`;
    /// `setUp` runs on it before its first job (to set how the kernel schedules it, say).
    package init(name: String, setUp: @escaping @Sendable () -> Void = {}) {
        let thread = Thread { [self] in
            condition.lock()
            identity = pthread_self()
            condition.unlock()
            // Foundation hands a running thread's name to the kernel, which keeps 15 bytes of it.
            Thread.current.name = name
            setUp()
            run()
        }
        thread.start()
    }

    /// Whether the caller runs on this thread.
    package var isCurrent: Bool {
        condition.lock()
        defer { condition.unlock() }
        return identity.map { pthread_equal($0, pthread_self()) != 0 } ?? false
    }

    /// Whether the thread has ended, after ``stop()``.
    package var hasEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Runs `body` with this thread as the task's executor preference: the body's own code, and the
    /// statements it runs, execute here; the caller continues where it was once the body returns.
    package func run<Result>(_ body: () async throws -> Result) async throws -> Result {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return try await withTaskExecutorPreference(self, operation: body)
        }
        // Apple systems older than task executors: the body runs where it is, the connection still
        // used by one task at a time.
        return try await body()
    }

    /// Takes a job of a task that prefers this thread; called by the concurrency runtime.
    package func enqueue(_ job: UnownedJob) {
        condition.lock()
        guard !ended else {
            condition.unlock()
            // A task still waiting for its turn when the connection closed finds the thread gone;
            // it runs (and learns that the connection is closed) rather than waiting forever.
            Thread { [self] in runSynchronously(job) }.start()
            return
        }
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the jobs enqueued so far have run. Stop a thread after its
    /// connection's last use: a job that comes later still runs, each on a thread of its own.
    package func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        var batch: [UnownedJob] = []
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                ended = true
                condition.unlock()
                return
            }
            swap(&batch, &jobs)
            condition.unlock()
            for job in batch { runSynchronously(job) }
            batch.removeAll(keepingCapacity: true)
        }
    }

    private func runSynchronously(_ job: UnownedJob) {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension SQLiteThread: TaskExecutor {}
