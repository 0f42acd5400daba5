import Foundation
import PostgresKit

/// Where Kinship keeps its data: an SQLite file (the embedded default) or a PostgreSQL server.
public enum DatabaseLocation: Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(SQLPostgresConfiguration)

    /// The default for `kinship serve` and the admin commands: `./kinship.sqlite`.
    public static let defaultSQLite = DatabaseLocation.sqlite(path: "kinship.sqlite")

    /// Reads `--database`: a `postgres://` (or `postgresql://`) URL, or a path to an SQLite file
    /// (optionally written `sqlite://PATH`).
    public init(parsing argument: String) throws(DatabaseLocationError) {
        let lowercased = argument.lowercased()
        if lowercased.hasPrefix("postgres://") || lowercased.hasPrefix("postgresql://")
            || lowercased.hasPrefix("postgres+") || lowercased.hasPrefix("postgresql+")
        {
            do {
                self = .postgres(try SQLPostgresConfiguration(url: argument))
            } catch {
                throw .invalidPostgresURL(Self.redacting(argument))
            }
        } else if lowercased.hasPrefix("sqlite://") {
            let path = String(argument.dropFirst("sqlite://".count))
            guard !path.isEmpty else { throw .emptyPath }
            self = .sqlite(path: path)
        } else {
            guard !argument.isEmpty else { throw .emptyPath }
            self = .sqlite(path: argument)
        }
    }

    /// A description safe for logs: the PostgreSQL password is never shown.
    public var description: String {
        switch self {
        case .sqlite(let path):
            "SQLite file \(path)"
        case .postgres(let configuration):
            "PostgreSQL \(configuration.coreConfiguration.username)@\(configuration.coreConfiguration.host ?? "unix socket"):\(configuration.coreConfiguration.port ?? SQLPostgresConfiguration.ianaPortNumber)/\(configuration.coreConfiguration.database ?? "")"
        }
    }

    static func redacting(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(unreadable URL)" }
        if components.password != nil { components.password = "***" }
        return components.string ?? "(unreadable URL)"
    }
}

/// Why a `--database` argument was refused.
public enum DatabaseLocationError: Error, Equatable, CustomStringConvertible {
    case invalidPostgresURL(String)
    case emptyPath

    public var description: String {
        switch self {
        case .invalidPostgresURL(let url):
            "Cannot read the PostgreSQL URL \(url). Expected postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=disable|prefer|require]."
        case .emptyPath:
            "The database path is empty. Give a file path for SQLite or a postgres:// URL."
        }
    }
}
