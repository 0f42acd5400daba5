import AsyncKit
import Logging
import NIOCore
import NIOPosix
import SQLiteNIO

/// Opens SQLite connections set up for a server: write-ahead logging so readers never wait for a
/// writer, a busy timeout so concurrent writers queue instead of failing, and foreign keys on.
struct KinshipSQLiteSource: ConnectionPoolSource {
    let path: String

    func makeConnection(logger: Logger, on eventLoop: any EventLoop) -> EventLoopFuture<SQLiteConnection> {
        let path = self.path
        return eventLoop.makeFutureWithTask {
            let connection = try await SQLiteConnection.open(
                storage: .file(path: path), threadPool: .singleton, logger: logger, on: eventLoop
            ).get()
            do {
                for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA busy_timeout = 10000", "PRAGMA foreign_keys = ON",
                    "PRAGMA synchronous = NORMAL"]
                {
                    _ = try await connection.query(pragma).get()
                }
            } catch {
                try? await connection.close().get()
                throw error
            }
            return connection
        }
    }
}
