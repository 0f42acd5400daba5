import KinshipSQLite
import NIOCore
import NIOPosix
import PostgresKit

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
        case let error as SQLiteFailure where error.isLocked:
            self.init(retryAfter: 1, reason: "SQLite stayed locked by another process (\(error))")
        case SQLiteFailure.closed:
            self.init(retryAfter: 1, reason: "the SQLite database is closed: the server is stopping")
        case let error as PSQLError where Self.isConnectivity(error):
            self.init(reason: Self.explanation(of: error))
        case ConnectionPoolTimeoutError.connectionRequestTimeout:
            self.init(retryAfter: 2, reason: "every PostgreSQL connection stayed busy")
        case let error as NIOConnectionError:
            self.init(reason: "nothing answered at \(error.host):\(error.port); check that the database server runs there")
        case is ChannelError, is IOError:
            self.init(reason: "the connection to the database broke off")
        default:
            return nil
        }
    }

    public var description: String { "The database is unavailable (\(reason))." }

    /// What a connectivity error means, in the operator's words rather than PostgresNIO's.
    private static func explanation(of error: PSQLError) -> String {
        switch error.serverInfo?[.sqlState] {
        case "53300"?:
            "PostgreSQL has no connection left (max_connections); raise it, or run fewer kinship processes"
        case let state? where state.hasPrefix("57P"):
            "PostgreSQL is shutting down or starting up"
        case _? where error.code == .server:
            "PostgreSQL refused the connection"
        default:
            "PostgreSQL cannot be reached; check that it runs and that --database names it"
        }
    }

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
