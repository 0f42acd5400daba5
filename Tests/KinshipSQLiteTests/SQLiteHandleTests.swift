import Foundation
import Testing

@testable import KinshipSQLite

/// One SQLite connection, driven directly: values, statements, bad files.
@Suite("An SQLite connection")
struct SQLiteHandleTests {
    @Test("every value comes back as SQLite stored it")
    func values() throws {
        try withScratchFile { path in
            let handle = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: [])
            try handle.execute("CREATE TABLE t (v)")
            let values: [SQLiteValue] = [
                .integer(.min), .integer(.max), .integer(0), .real(-0.5), .real(1e300), .text(""), .text("Ada 李小龍 👩‍💻"),
                .text("nul\u{0}inside"), .blob([]), .blob([0, 255, 0]), .null,
            ]
            for value in values { try handle.execute("INSERT INTO t (v) VALUES (?)", [value]) }
            var read: [SQLiteValue] = []
            try handle.execute("SELECT v FROM t ORDER BY rowid") { columns, row in
                #expect(columns.names == ["v"])
                read.append(row[0])
            }
            // SQLite keeps an empty blob as a zero-length blob, and a string's bytes as they were.
            #expect(read == values)
        }
    }

    @Test("one statement per call: a second one is refused and nothing runs")
    func severalStatements() throws {
        try withScratchFile { path in
            let handle = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: [])
            try handle.execute("CREATE TABLE t (v INTEGER);  \n")
            #expect(throws: SQLiteFailure.severalStatements) {
                try handle.execute("INSERT INTO t (v) VALUES (1); DROP TABLE t")
            }
            var count: SQLiteValue?
            try handle.execute("SELECT COUNT(*) AS n FROM t") { _, row in count = row[0] }
            #expect(count == .integer(0))
            try handle.execute("-- nothing but a comment")
        }
    }

    @Test("prepared statements are run again with new values; past the limit the oldest are finalized")
    func preparedStatements() throws {
        try withScratchFile { path in
            let handle = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: [])
            try handle.execute("CREATE TABLE t (v INTEGER)")
            let distinct = SQLiteHandle.preparedStatementLimit * 2
            for value in 0..<distinct {
                try handle.execute("INSERT INTO t (v) VALUES (\(value))")
                try handle.execute("INSERT INTO t (v) VALUES (?)", [.integer(Int64(-value))])
            }
            var sum: SQLiteValue?
            try handle.execute("SELECT SUM(v) AS total, COUNT(*) AS n FROM t") { columns, row in
                #expect(columns.names == ["total", "n"])
                #expect(columns.position(of: "n") == 1)
                sum = row[0]
                #expect(row[1] == .integer(Int64(distinct * 2)))
            }
            #expect(sum == .integer(0))
        }
    }

    @Test("a statement whose table gains or renames a column reads the columns as they are now")
    func schemaChange() throws {
        try withScratchFile { path in
            let handle = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: [])
            try handle.execute("CREATE TABLE t (a INTEGER)")
            try handle.execute("INSERT INTO t (a) VALUES (1)")
            var names: [String] = []
            try handle.execute("SELECT * FROM t") { columns, _ in names = columns.names }
            #expect(names == ["a"])
            try handle.execute("ALTER TABLE t ADD COLUMN b TEXT")
            try handle.execute("SELECT * FROM t") { columns, _ in names = columns.names }
            #expect(names == ["a", "b"])
            try handle.execute("ALTER TABLE t RENAME COLUMN b TO c")
            try handle.execute("SELECT * FROM t") { columns, _ in names = columns.names }
            #expect(names == ["a", "c"], "a renamed column, the count unchanged")
        }
    }

    @Test("a file that is not a database is refused in SQLite's words, and left as it was")
    func notADatabase() throws {
        try withScratchFile { path in
            let garbage = Data(repeating: 0x5A, count: 8192)
            try garbage.write(to: URL(fileURLWithPath: path))
            let failure = #expect(throws: SQLiteFailure.self) {
                _ = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: ["PRAGMA journal_mode = WAL"])
            }
            #expect(failure?.description.contains("file is not a database") == true, "\(String(describing: failure))")
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == garbage)
        }
    }

    @Test("constraints and locks are told apart; a closed connection says so")
    func failures() throws {
        try withScratchFile { path in
            let first = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: [])
            let second = try SQLiteHandle(path: path, busyTimeoutMilliseconds: 50, pragmas: [])
            try first.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try first.execute("INSERT INTO t (id) VALUES (1)")
            let constraint = #expect(throws: SQLiteFailure.self) { try first.execute("INSERT INTO t (id) VALUES (1)") }
            #expect(constraint?.isConstraint == true)
            #expect(constraint?.isLocked == false)
            try first.execute("BEGIN IMMEDIATE")
            let locked = #expect(throws: SQLiteFailure.self) { try second.execute("BEGIN IMMEDIATE") }
            #expect(locked?.isLocked == true)
            try first.execute("ROLLBACK")
            first.close()
            #expect(throws: SQLiteFailure.closed) { try first.execute("SELECT 1") }
        }
    }
}

/// A path in the temporary folder for `body`, removed afterwards with SQLite's side files.
func withScratchFile<Result>(_ body: (String) throws -> Result) rethrows -> Result {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-sqlite-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    return try body(path)
}
