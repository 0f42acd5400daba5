import SQLKit

/// Keys every server process must share (the CSRF signing key), created once and kept in the database.
struct ServerKeyStore: Sendable {
    let database: Database

    /// The key with this name, created at random on first use.
    func key(named name: String) async throws -> String {
        try await database.withConnection { sql in
            try await sql.raw(
                "INSERT INTO server_keys (name, value) VALUES (\(bind: name), \(bind: Secrets.generate(byteCount: 32))) ON CONFLICT (name) DO NOTHING"
            ).run()
            guard
                let value = try await sql.raw("SELECT value FROM server_keys WHERE name = \(bind: name)")
                    .first(decodingColumn: "value", as: String.self)
            else { throw StorageError.vanished("server key \(name)") }
            return value
        }
    }
}
