import ArgumentParser
import Foundation
import KinshipServer
import Logging

/// `--database`, shared by `serve` and every admin command.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An SQLite file path, or a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL (default: kinship.sqlite).",
            discussion: "Or set KINSHIP_DATABASE, which keeps a PostgreSQL password off the command line. The SQLite file and its "
                + "schema are created on first use.",
            valueName: "path-or-url"
        )
    )
    var database: String?

    /// `--database`, else `KINSHIP_DATABASE`, else `kinship.sqlite`.
    func location(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DatabaseLocation {
        try Self.location(parsing: database ?? environment["KINSHIP_DATABASE"] ?? Self.defaultDatabase)
    }

    static let defaultDatabase = "kinship.sqlite"

    static func location(parsing text: String) throws -> DatabaseLocation {
        do {
            return try DatabaseLocation(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// Opens the platform's storage for an admin command, runs `body`, and closes it again.
    func withPlatform<Result: Sendable>(_ body: (Platform) async throws -> Result) async throws -> Result {
        let logger = Logger(label: "kinship.admin")
        let platform = try await Platform.open(try location(), logger: logger)
        do {
            let result = try await body(platform)
            await platform.close()
            return result
        } catch {
            await platform.close()
            throw error
        }
    }
}
