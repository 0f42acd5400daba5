import ArgumentParser
import KinshipServer
import Logging

/// `--database`, shared by `serve` and every admin command.
struct DatabaseOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An SQLite file path, or a postgres://USER:PASSWORD@HOST:PORT/DATABASE URL.",
            discussion: "The SQLite file and its schema are created on first use.",
            valueName: "path-or-url"))
    var database: String = "kinship.sqlite"

    func location() throws -> DatabaseLocation {
        do {
            return try DatabaseLocation(parsing: database)
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
