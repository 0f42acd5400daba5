import Testing

@testable import KinshipSQLite

/// The thread a connection lives on, as the executor of the work that uses the connection.
@Suite("An SQLite connection's thread")
struct SQLiteThreadTests {
    @Test("a body runs on the thread from start to end, through its awaits; its caller goes on elsewhere")
    func bodyStaysOnItsThread() async throws {
        let thread = SQLiteThread(name: "test-thread")
        defer { thread.stop() }
        let seen = try await thread.run { () async throws -> [Bool] in
            var seen = [thread.isCurrent]
            try await Task.sleep(for: .milliseconds(5))
            seen.append(thread.isCurrent)
            await Task.yield()
            seen.append(await isCurrentAfterAnotherAsyncCall(thread))
            return seen
        }
        #expect(seen == [true, true, true])
        #expect(!thread.isCurrent)
    }

    @Test("bodies of many tasks take turns on the one thread; each finishes")
    func manyTasks() async throws {
        let thread = SQLiteThread(name: "test-many")
        defer { thread.stop() }
        let sum = try await withThrowingTaskGroup(of: Int.self) { group in
            for value in 1...200 {
                group.addTask {
                    try await thread.run {
                        await Task.yield()
                        return thread.isCurrent ? value : -1_000_000
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(sum == 200 * 201 / 2)
    }

    @Test("a body that comes after the thread ended still runs, on a thread of its own")
    func afterTheEnd() async throws {
        let thread = SQLiteThread(name: "test-ended")
        #expect(try await thread.run { thread.isCurrent })
        thread.stop()
        let deadline = ContinuousClock.now + .seconds(10)
        while !thread.hasEnded && ContinuousClock.now < deadline { await Task.yield() }
        #expect(thread.hasEnded)
        #expect(
            try await thread.run {
                await Task.yield()
                return 42
            } == 42
        )
    }
}

private func isCurrentAfterAnotherAsyncCall(_ thread: SQLiteThread) async -> Bool {
    await Task.yield()
    return thread.isCurrent
}
