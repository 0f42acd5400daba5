import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KinshipSQLite
import Logging
import NIOCore
import PostgresKit
import Testing

@testable import KinshipServer

/// What happens when the database cannot be reached (PostgreSQL down, or an SQLite file locked by
/// another process too long): a 503 with `Retry-After`, never a 500 or a hang. The end-to-end
/// check stops a real PostgreSQL under load (`scripts/e2e/under_load.py`).
@Suite("The database is unavailable", .timeLimit(.minutes(3)))
struct DatabaseUnavailableTests {
    @Test("connection failures and lock timeouts are unavailability; other errors are not hidden behind a retry")
    func classification() {
        #expect(DatabaseUnavailable(ConnectionPoolTimeoutError.connectionRequestTimeout) != nil)
        #expect(DatabaseUnavailable(AccountError.emailTaken("ada@example.com")) == nil)
    }

    @Test("an SQLite file another process keeps locked: writes are unavailable after the busy timeout, reads go on")
    func sqliteLockedElsewhere() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let database = try await Database.open(.sqlite(path: path), logger: Logger(label: "test"))
        try await database.write { sql in
            try await sql.raw("CREATE TABLE t (id INTEGER PRIMARY KEY)").run()
            try await sql.raw("INSERT INTO t (id) VALUES (1)").run()
        }
        // Another connection, as an admin command in another process would hold it.
        let otherThread = SQLiteThread(name: "other")
        defer { otherThread.stop() }
        let otherProcess = try await otherThread.run { try SQLiteHandle(path: path, busyTimeoutMilliseconds: 0, pragmas: []) }
        try await otherThread.run { try otherProcess.execute("BEGIN IMMEDIATE") }
        await #expect(throws: DatabaseUnavailable.self) {
            try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (2)").run() }
        }
        let count = try await database.read { sql in try await sql.raw("SELECT COUNT(*) AS n FROM t").first(decodingColumn: "n", as: Int.self) }
        #expect(count == 1)
        try await otherThread.run {
            try otherProcess.execute("ROLLBACK")
            otherProcess.close()
        }
        let constraint = await #expect(throws: SQLiteFailure.self, "a constraint failure is not unavailability") {
            try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (1)").run() }
        }
        #expect(constraint?.isConstraint == true)
        try await database.write { sql in try await sql.raw("INSERT INTO t (id) VALUES (2)").run() }
        await database.close()
    }

    @Test("a PostgreSQL nobody listens for is unavailable at once, not after a timeout")
    func unreachable() async throws {
        let nobody = try DatabaseLocation(parsing: "postgres://kinship@127.0.0.1:\(try Self.closedPort())/none?sslmode=disable")
        let database = try await Database.open(nobody, logger: Logger(label: "test"))
        let started = ContinuousClock.now
        await #expect(throws: DatabaseUnavailable.self) {
            try await database.read { sql in try await sql.raw("SELECT 1").run() }
        }
        #expect(ContinuousClock.now - started < .seconds(4))
        await database.close()
    }

    @Test("answered 503 with Retry-After: JSON for clients, a page for browsers")
    func answers() async throws {
        let router = Router()
        router.add(middleware: SecurityHeadersMiddleware())
        router.get("/write") { _, _ -> String in throw DatabaseUnavailable(retryAfter: 5, reason: "test") }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/write", method: .get) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "5")
                #expect(String(buffer: response.body).contains(#""error":"temporarily_unavailable""#))
            }
            try await client.execute(uri: "/write", method: .get, headers: [.accept: "text/html,*/*"]) { response in
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
                #expect(String(buffer: response.body).contains("Nothing was changed"))
            }
        }
    }

    /// A port on 127.0.0.1 that nothing listens on.
    static func closedPort() throws -> Int {
        let socket = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = socket.localAddress?.port ?? 1
        try socket.close().wait()
        return port
    }
}
