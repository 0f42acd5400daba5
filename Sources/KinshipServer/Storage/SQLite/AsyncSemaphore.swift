import NIOConcurrencyHelpers

/// Turns at a limited resource, handed out in arrival order to tasks that wait without blocking a
/// thread: the SQLite writer (one turn) and the reader connections (one turn each).
///
/// A task cancelled while it waits leaves the queue and throws `CancellationError`; it never holds
/// a turn it did not get.
final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        /// How many calls to ``wait()`` found no turn free and queued.
        var waits = 0
        var nextWaiterID = 0
        /// Waiters in arrival order, by id.
        var waiters: [(id: Int, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private let state: NIOLockedValueBox<State>

    init(turns: Int) {
        precondition(turns > 0, "a semaphore needs at least one turn")
        state = NIOLockedValueBox(State(available: turns))
    }

    /// Waits for a turn; give it back with ``signal()``.
    func wait() async throws {
        let id: Int? = state.withLockedValue { state in
            if state.available > 0 {
                state.available -= 1
                return nil
            }
            state.waits += 1
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // A turn may have come back, or the task been cancelled, since the check above.
                let outcome: Result<Void, CancellationError>? = state.withLockedValue { state in
                    if state.available > 0 {
                        state.available -= 1
                        return .success(())
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters.append((id, continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome.mapError { $0 as any Error }) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// How many times a task found no turn free and had to wait, since the semaphore was made.
    var waits: Int { state.withLockedValue { $0.waits } }

    /// Gives a turn back: to the longest waiting task, or to the pool.
    func signal() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst().continuation
        }
        next?.resume()
    }

    /// Runs `body` during a turn.
    func withTurn<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await wait()
        defer { signal() }
        return try await body()
    }
}
