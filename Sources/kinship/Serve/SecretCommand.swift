import ArgumentParser
import KinshipServer

struct SecretCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Make the server secret that several `kinship serve` processes share.",
        subcommands: [Generate.self]
    )

    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new server secret to a file (mode 0600); refuses to overwrite one.",
            discussion: """
                Give every `kinship serve` that shares a PostgreSQL database the same file with --secret-file. \
                Keep it out of the database's backups: it is what keeps the platform's keys from being read there.
                """
        )

        @Option(help: ArgumentHelp("Where to write the secret.", valueName: "path")) var output: String

        func run() async throws {
            try ServerSecret.create(at: output)
            print("Server secret written to \(output). Pass --secret-file \(output) to every kinship serve.")
        }
    }
}
