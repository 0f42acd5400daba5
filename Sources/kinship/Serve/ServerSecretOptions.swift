import KinshipServer
import Logging

/// Where `kinship serve` finds its server secret.
enum ServerSecretOptions {
    /// The secret at `explicitPath`, or — for an SQLite database — beside the database file,
    /// created there on first start. PostgreSQL needs an explicit path: every process must read
    /// the same secret, so none may invent its own.
    static func load(explicitPath: String?, database: DatabaseLocation, logger: Logger) throws -> ServerSecret {
        let path: String
        let createIfMissing: Bool
        switch (explicitPath, database) {
        case (let explicit?, _):
            (path, createIfMissing) = (explicit, false)
        case (nil, .sqlite(let databasePath)):
            (path, createIfMissing) = (databasePath + "-secret", true)
        case (nil, .postgres):
            throw ServerSecretOptionsError.postgresNeedsSecretFile
        }
        let secret = try ServerSecret.load(from: path, createIfMissing: createIfMissing)
        if ServerSecret.isShared(path) {
            logger.warning(
                "The server secret file can be read by other users; make it private with chmod 600",
                metadata: ["path": "\(path)"]
            )
        }
        return secret
    }
}

/// Why `kinship serve` has no server secret to use.
enum ServerSecretOptionsError: Error, CustomStringConvertible {
    case postgresNeedsSecretFile

    var description: String {
        switch self {
        case .postgresNeedsSecretFile:
            "kinship serve on PostgreSQL needs --secret-file: every process behind the load balancer must use the same secret. "
                + "Create one with `kinship secret generate --output kinship.secret` and pass --secret-file kinship.secret to each."
        }
    }
}
