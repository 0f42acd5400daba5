import NIOCore
import NIOPosix
import PostgresKit
import SQLiteKit

/// The database could not be reached, or stayed too busy to answer: nothing was changed, and the
/// same request may succeed a few seconds later.
///
/// The HTTP layer answers it with `503 Service Unavailable` and `Retry-After`.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    /// Seconds a client should wait before it tries again.
    public let retryAfter: Int
    /// What happened, for the log.
    public let reason: String

    public init(retryAfter: Int = 5, reason: String) {
        self.retryAfter = retryAfter
        self.reason = reason
    }

    /// The unavailability behind a storage error, or `nil` when the error is of another kind (a
    /// constraint, a bug) and must not be hidden behind a retry.
    init?(_ error: any Error) {
        switch error {
        case let error as DatabaseUnavailable:
            self = error
        case let error as SQLiteError where Self.sqliteLockReasons.contains(error.reason):
            self.init(retryAfter: 1, reason: "SQLite stayed locked by another process: \(error.message)")
        case let error as PSQLError where Self.isConnectivity(error):
            self.init(reason: "PostgreSQL cannot be reached: \(String(describing: error.code))\(error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? "")")
        case ConnectionPoolTimeoutError.connectionRequestTimeout:
            self.init(retryAfter: 2, reason: "every PostgreSQL connection stayed busy")
        case is NIOConnectionError, is ChannelError, is IOError:
            self.init(reason: "the database connection failed: \(error)")
        default:
            return nil
        }
    }

    public var description: String { "The database is unavailable (\(reason))." }

    private static let sqliteLockReasons: [SQLiteError.Reason] = [
        .busy, .busyInRecovery, .busyInSnapshot, .busyTimeout, .locked, .lockedBySharedCache,
    ]

    private static func isConnectivity(_ error: PSQLError) -> Bool {
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            return true
        case .server:
            // Class 08: connection exception; 57P01–57P03: shutting down or starting up; 53300: too many connections.
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(state)
        default:
            return false
        }
    }
}
