#if os(Linux)
import Glibc
import Logging
import NIOPosix
import Testing

@testable import KinshipServer

/// `kinship serve --thread-scheduling batch` batch-schedules its event loops and its SQLite
/// connections' threads (``ThreadScheduling``); by default they keep the policy they started with.
@Suite("Thread scheduling")
struct ThreadSchedulingTests {
    /// Linux's `SCHED_BATCH`.
    private static let batchPolicy: Int32 = 3

    @Test("a database opened batch-scheduled reads and writes on batch-scheduled threads; by default as they started", arguments: [true, false])
    func databaseThreads(batch: Bool) async throws {
        let scratch = try await TestEngine.sqlite.makeScratchDatabase()
        let (read, written): (Int32, Int32)
        do {
            let database = try await Database.open(
                scratch.location,
                logger: Logger(label: "test"),
                threadScheduling: batch ? .batch : .inherited
            )
            read = try await database.read { _ in sched_getscheduler(0) }
            written = try await database.write { _ in sched_getscheduler(0) }
            await database.close()
        } catch {
            await scratch.remove()
            throw error
        }
        await scratch.remove()
        let expected = batch ? Self.batchPolicy : 0
        #expect(read == expected && written == expected)
        #expect(sched_getscheduler(0) == 0, "the caller's thread is left as it was")
    }

    @Test("every event loop of a group is batch-scheduled; inherited leaves them as they started", arguments: [true, false])
    func eventLoops(batch: Bool) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        #expect(await (batch ? ThreadScheduling.batch : .inherited).apply(to: group))
        var policies: [Int32] = []
        for loop in group.makeIterator() { policies.append(try await loop.submit { sched_getscheduler(0) }.get()) }
        try await group.shutdownGracefully()
        #expect(policies == Array(repeating: batch ? Self.batchPolicy : 0, count: 2))
    }
}
#endif
