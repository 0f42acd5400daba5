import Crypto
import Foundation
import KinshipCore
import SQLKit

/// The platform's remote token cache: entries a client stores under a secret key it holds, so a
/// second device given the key starts logged in.
///
/// The key never reaches the database: entries are found by one hash of it and sealed (AES-GCM)
/// with another, so whoever reads the database — or lacks the key — can neither read an entry nor
/// tell whether one exists.
struct TokenCacheStore: Sendable {
    /// The longest an entry may live (as long as a long-lived token).
    static let maximumLifetime = 60 * 24 * 60 * 60
    /// The largest entry accepted, in bytes.
    static let maximumBytes = 8 * 1024

    let database: Database
    let clock: any WallClock

    /// Whether a key is one a client could have made: 22 to 128 base64url characters (≥ 128 bits).
    static func isValidKey(_ key: String) -> Bool {
        Base64URL.isWellFormed(key, length: 22...128)
    }

    func put(key: String, entry: Data, expiresAt: Int) async throws {
        let sealed = try AES.GCM.seal(entry, using: Self.sealingKey(for: key)).combined!
        let now = clock.now
        try await database.write { sql in
            try await sql.raw(
                """
                INSERT INTO token_cache_entries (key_hash, ciphertext, expires_at, updated_at)
                VALUES (\(bind: Self.lookupHash(for: key)), \(bind: sealed), \(bind: expiresAt), \(bind: now))
                ON CONFLICT (key_hash) DO UPDATE SET ciphertext = excluded.ciphertext, expires_at = excluded.expires_at,
                    updated_at = excluded.updated_at
                """
            ).run()
            try await sql.raw("DELETE FROM token_cache_entries WHERE expires_at <= \(bind: now)").run()
        }
    }

    /// The entry under a key, if there is one and it has not expired.
    func get(key: String) async throws -> Data? {
        let now = clock.now
        let row = try await database.read { sql in
            try await sql.raw(
                "SELECT ciphertext FROM token_cache_entries WHERE key_hash = \(bind: Self.lookupHash(for: key)) AND expires_at > \(bind: now)"
            ).first(decodingColumn: "ciphertext", as: Data.self)
        }
        guard let row else { return nil }
        return try AES.GCM.open(AES.GCM.SealedBox(combined: row), using: Self.sealingKey(for: key))
    }

    func delete(key: String) async throws {
        try await database.write { sql in
            try await sql.raw("DELETE FROM token_cache_entries WHERE key_hash = \(bind: Self.lookupHash(for: key))").run()
        }
    }

    private static func lookupHash(for key: String) -> String {
        Secrets.hash("kinship token cache lookup|" + key)
    }

    private static func sealingKey(for key: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(key.utf8)),
            info: Data("kinship token cache seal".utf8),
            outputByteCount: 32
        )
    }
}
