import ArgumentParser
import KinshipServer
import Logging

/// `--database` and `--secret-file`, for admin commands that read or write what the server secret
/// seals (id_token signing keys, apps' signing secrets).
struct SecretStorageOptions: ParsableArguments {
    @OptionGroup var storage: DatabaseOptions
    @Option(
        name: .customLong("secret-file"),
        help: ArgumentHelp(
            "The server secret file `kinship serve` uses.",
            discussion: "Defaults to DATABASE-secret for an SQLite database.",
            valueName: "path"
        )
    )
    var secretFile: String?

    /// Opens the platform and loads the server secret, runs `body`, and closes the platform.
    func withPlatform<Result: Sendable>(_ body: (Platform, ServerSecret) async throws -> Result) async throws -> Result {
        let location = try storage.location()
        let secret = try ServerSecretOptions.load(explicitPath: secretFile, database: location, logger: Logger(label: "kinship.admin"))
        return try await storage.withPlatform { try await body($0, secret) }
    }
}
