import ArgumentParser
import KinshipServer

/// `kinship backup FILE`: a consistent copy of the SQLite database while the server runs.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the SQLite database, consistently, while servers keep using it; prints {\"path\", \"bytes\", …}.",
        discussion: """
            The copy is one snapshot (SQLite's VACUUM INTO): logins and writes go on meanwhile, and none of them \
            lands half-way in it. It is checked with PRAGMA integrity_check and readable by its owner only. A backup \
            never overwrites a file.

            The server secret is not in the database: keep the secret file (DATABASE-secret beside an SQLite \
            database) with the copy, or the copy's id_token signing keys cannot be unsealed. To restore, stop the \
            servers and put the copy (and the secret) in place of the database.

            For PostgreSQL use its own tools while the servers run: pg_dump --format=custom, then pg_restore.
            """
    )

    @OptionGroup var storage: DatabaseOptions
    @Argument(help: ArgumentHelp("Where to write the copy; must not exist yet.", valueName: "file")) var file: String

    struct Summary: Encodable {
        let path: String
        let bytes: Int
        let integrityCheck: String
        let secretFileToKeep: String

        enum CodingKeys: String, CodingKey {
            case path, bytes
            case integrityCheck = "integrity_check"
            case secretFileToKeep = "secret_file_to_keep"
        }
    }

    func run() async throws {
        let location = try storage.location()
        let backup = try await Database.backUp(location, to: file)
        // Database.backUp copies SQLite only; a PostgreSQL location was refused above with pg_dump advice.
        guard case .sqlite(let databasePath) = location else { return }
        try JSONOutput.print(
            Summary(path: backup.path, bytes: backup.bytes, integrityCheck: "ok", secretFileToKeep: databasePath + "-secret")
        )
    }
}
