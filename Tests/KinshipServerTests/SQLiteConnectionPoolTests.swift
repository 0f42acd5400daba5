import Foundation
import KinshipSQLite
import Logging
import SQLKit
import Testing

@testable import KinshipServer

/// The SQLite storage under the stores: turns at the writer and the readers, reads that see one
/// state, and what happens to a connection kept too long or a database closed under way.
@Suite("SQLite connections in turns", .timeLimit(.minutes(3)))
struct SQLiteConnectionPoolTests {
    @Test("a connection kept past its read or write refuses to run anything")
    func connectionKeptTooLong() async throws {
        try await withScratchDatabase { database in
            let kept = try await database.write { sql -> any SQLDatabase in
                try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run()
                return sql
            }
            await #expect(throws: SQLiteFailure.usedAfterItsTurn) { try await kept.raw("INSERT INTO t (id) VALUES (1)").run() }
            let count = try await database.read { sql in try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self) }
            #expect(count == 0)
        }
    }

    @Test("a read sees one state from its first statement to its last while writes commit beside it")
    func readsSeeOneState() async throws {
        try await withScratchDatabase { database in
            try await database.write { sql in
                try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run()
                try await sql.raw("INSERT INTO t (id) VALUES (1)").run()
            }
            let counts = try await database.read { sql in
                let before = try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
                try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (2)").run() }
                let after = try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self)
                return [before, after]
            }
            #expect(counts == [1, 1])
            #expect(try await database.read { sql in try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self) } == 2)
        }
    }

    @Test("a write that throws half-way leaves nothing; the writer goes on with the next one")
    func rollback() async throws {
        try await withScratchDatabase { database in
            try await database.write { sql in try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run() }
            struct Refused: Error {}
            await #expect(throws: Refused.self) {
                try await database.write { sql in
                    try await sql.raw("INSERT INTO t (id) VALUES (1)").run()
                    throw Refused()
                }
            }
            await #expect(throws: SQLiteFailure.self) {
                try await database.write { sql in try await sql.raw("INSERT INTO nowhere (id) VALUES (1)").run() }
            }
            try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (2)").run() }
            let ids = try await database.read { sql in try await sql.raw("SELECT id FROM t").all(decodingColumn: "id", as: Int.self) }
            #expect(ids == [2])
        }
    }

    @Test("64 writers and 64 readers at once: every write lands once, every read answers")
    func manyAtOnce() async throws {
        try await withScratchDatabase { database in
            try await database.write { sql in try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, who TEXT NOT NULL)").run() }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<64 {
                    group.addTask {
                        try await database.write { sql in
                            try await sql.raw("INSERT INTO t (id, who) VALUES (\(bind: index), \(bind: "writer \(index)"))").run()
                        }
                    }
                    group.addTask {
                        _ = try await database.read { sql in try await sql.raw("SELECT COUNT(*) AS n FROM t").first() }
                    }
                }
                try await group.waitForAll()
            }
            let whos = try await database.read { sql in try await sql.raw("SELECT who FROM t ORDER BY id").all(decodingColumn: "who", as: String.self)
            }
            #expect(whos == (0..<64).map { "writer \($0)" })
        }
    }

    @Test("closing waits for the write under way; reads and writes afterwards are unavailable, not hung")
    func closing() async throws {
        try await withScratchDatabase(closing: false) { database in
            try await database.write { sql in try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run() }
            let (holding, nowHolding) = AsyncStream.makeStream(of: Void.self)
            let (release, releasing) = AsyncStream.makeStream(of: Void.self)
            async let slowWrite: Void = database.write { sql in
                try await sql.raw("INSERT INTO t (id) VALUES (1)").run()
                nowHolding.yield()
                for await _ in release { break }
                try await sql.raw("INSERT INTO t (id) VALUES (2)").run()
            }
            for await _ in holding { break }
            // Waits for its turn behind the slow write while the database closes under it.
            let queuedWrite = Task { try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (3)").run() } }
            let deadline = ContinuousClock.now + .seconds(10)
            while database.poolWaits().first(where: { $0.pool == "writer" })?.waits ?? 0 < 1, ContinuousClock.now < deadline {
                await Task.yield()
            }
            let closing = Task { await database.close() }
            // Closing refuses new work at once, then waits for the write under way to finish.
            while (try? await database.read { sql in try await sql.raw("SELECT 1").run() }) != nil, ContinuousClock.now < deadline {
                await Task.yield()
            }
            releasing.yield()
            await closing.value
            try await slowWrite
            await #expect(throws: DatabaseUnavailable.self) { try await queuedWrite.value }
            await #expect(throws: DatabaseUnavailable.self) { try await database.read { sql in try await sql.raw("SELECT 1").run() } }
            await #expect(throws: DatabaseUnavailable.self) { try await database.write { sql in try await sql.raw("SELECT 1").run() } }
        }
    }

    /// An SQLite database in a scratch file for `body`, closed (unless the test closes it) and removed afterwards.
    @Test("rows decode every storage class as SQLiteKit does, on all the readers at once")
    func rowDecoding() async throws {
        struct Row: Decodable, Equatable {
            var text: String
            var number: Int
            var missing: Int?
            var flag: Bool
            var real: Double
            var numberAsText: String
            var list: [String]
            var bytes: Data
        }
        try await withScratchDatabase { database in
            try await database.write { sql in
                try await sql.raw("CREATE TABLE t (text TEXT, number INTEGER, missing INTEGER, flag INTEGER, real REAL, list TEXT, bytes BLOB)")
                    .run()
                try await sql.raw(
                    #"INSERT INTO t VALUES ('Ada', 42, NULL, 1, 2.5, '["a","b"]', X'00FF')"#
                ).run()
            }
            let expected = Row(
                text: "Ada",
                number: 42,
                missing: nil,
                flag: true,
                real: 2.5,
                numberAsText: "42",
                list: ["a", "b"],
                bytes: Data([0, 255])
            )
            let rows = try await withThrowingTaskGroup(of: Row.self) { group in
                for _ in 0..<64 {
                    group.addTask {
                        try await database.read { sql in
                            try await sql.raw(
                                "SELECT text, number, missing, flag, real, number AS numberAsText, list, bytes FROM t"
                            ).first(decoding: Row.self)
                        }!
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(rows.count == 64 && rows.allSatisfy { $0 == expected })
            await #expect(throws: (any Error).self, "text is no integer") {
                try await database.read { sql in try await sql.raw("SELECT text FROM t").first(decodingColumn: "text", as: Int.self) }
            }
        }
    }

    @Test("two statements at once on one connection stop the process with a clear message, never run")
    func concurrentStatementsStop() async {
        let exit = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-\(UUID().uuidString).sqlite").path
            let database = try await Database.open(.sqlite(path: path), logger: Logger(label: "test"))
            try await database.read { sql in
                // A task of its own does not run on the connection's thread, so its statement
                // starts while the body's long one is still running.
                Task.detached {
                    try await Task.sleep(for: .milliseconds(100))
                    try await sql.raw("SELECT 1").run()
                }
                try await sql.raw(
                    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000000) SELECT COUNT(*) FROM n"
                ).run()
            }
        }
        let message = String(decoding: exit?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("two statements ran at once on one SQLite connection"), "\(message)")
    }

    private func withScratchDatabase(closing: Bool = true, _ body: (Database) async throws -> Void) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await Database.open(.sqlite(path: path), logger: Logger(label: "test"))
        do {
            try await body(database)
        } catch {
            await database.close()
            throw error
        }
        if closing { await database.close() }
    }
}
