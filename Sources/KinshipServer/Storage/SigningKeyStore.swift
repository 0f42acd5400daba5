import SQLKit

/// A key that signs id_tokens, as stored: the private key sealed, the public half as a JWK.
struct SigningKeyRecord: Codable, Sendable, Equatable {
    var kid: String
    var algorithm: String
    /// The private key's DER, sealed with AES-GCM under a key derived from the server secret.
    var sealedPrivateKey: String
    /// The public key as published in the JWKS (JSON).
    var publicJwk: String
    var createdAt: Int
    /// From when the key signs (Unix seconds); until then it is only published.
    var activatesAt: Int
    /// From when the key no longer signs; it stays published while what it signed is valid.
    var retiredAt: Int?
}

/// The id_token signing keys every process of a deployment shares.
struct SigningKeyStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Every stored key, oldest first.
    func all() async throws -> [SigningKeyRecord] {
        try await database.read { sql in
            try await sql.raw("SELECT * FROM signing_keys ORDER BY activates_at, created_at, kid")
                .all(decoding: SigningKeyRecord.self, with: .snakeCase)
        }
    }

    /// Adds `key` unless a key that signs now exists already (another process made one first);
    /// returns whether it was added.
    func addFirst(_ key: SigningKeyRecord) async throws -> Bool {
        let now = clock.now
        return try await database.write { sql in
            try await sql.serialize(on: ["signing-keys"])
            let signing = try await sql.raw(
                """
                SELECT kid FROM signing_keys
                WHERE activates_at <= \(bind: now) AND (retired_at IS NULL OR retired_at > \(bind: now))
                """
            ).first()
            guard signing == nil else { return false }
            try await insert(key, sql)
            return true
        }
    }

    /// Adds `key`, retires every key not yet retired at the moment it activates, and forgets keys
    /// that stopped being published before `forgetBefore` (their retirement time).
    func rotate(to key: SigningKeyRecord, forgetRetiredBefore forgetBefore: Int) async throws {
        try await database.write { sql in
            try await sql.serialize(on: ["signing-keys"])
            try await sql.raw("DELETE FROM signing_keys WHERE retired_at < \(bind: forgetBefore)").run()
            try await sql.raw("UPDATE signing_keys SET retired_at = \(bind: key.activatesAt) WHERE retired_at IS NULL").run()
            try await insert(key, sql)
        }
    }

    private func insert(_ key: SigningKeyRecord, _ sql: any SQLDatabase) async throws {
        try await sql.raw(
            """
            INSERT INTO signing_keys (kid, algorithm, sealed_private_key, public_jwk, created_at, activates_at, retired_at)
            VALUES (\(bind: key.kid), \(bind: key.algorithm), \(bind: key.sealedPrivateKey), \(bind: key.publicJwk),
                \(bind: key.createdAt), \(bind: key.activatesAt), \(bind: key.retiredAt))
            """
        ).run()
    }
}
