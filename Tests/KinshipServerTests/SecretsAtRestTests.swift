import Crypto
import Foundation
import Logging
import Testing

@testable import KinshipServer

/// What someone who copies the database files gets: files only the server's user can read, and
/// no key of the platform's in them.
@Suite("Secrets at rest", .timeLimit(.minutes(3)))
struct SecretsAtRestTests {
    @Test("a new SQLite database and the files beside it are readable by their owner only")
    func fileModes() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-modes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("kinship.sqlite").path
        let platform = try await Platform.open(.sqlite(path: path), bcryptCost: 4, logger: Logger(label: "test"))
        _ = try await platform.users.create(NewUser(name: "Ada", email: "ada@example.com", password: "12345678"))
        _ = try ServerSecret.load(from: path + "-secret", createIfMissing: true)
        for suffix in ["", "-wal", "-shm", "-grants", "-secret"] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: path + suffix)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(suffix.isEmpty ? "the database" : suffix) has mode \(String(mode, radix: 8))")
        }
        await platform.close()
    }

    @Test("the CSRF key and built-in apps' secrets are derived from the server secret, never stored", arguments: TestEngine.enabled)
    func keysOutsideTheDatabase(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let tables = try await platform.database.read { sql in
                try await sql.raw(
                    platform.database.engine == .sqlite
                        ? "SELECT name FROM sqlite_master WHERE type = 'table'"
                        : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()"
                ).all(decodingColumn: "name", as: String.self)
            }
            #expect(!tables.contains("server_keys"))
            #expect(tables.contains("login_attempts") && tables.contains("rate_counters"))
        }
    }

    @Test("a secret file is made once, read back the same, never overwritten, and refused when damaged")
    func secretFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-\(UUID().uuidString)-secret").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ServerSecretError.self) { try ServerSecret.load(from: path, createIfMissing: false) }
        let first = try ServerSecret.load(from: path, createIfMissing: true)
        let again = try ServerSecret.load(from: path, createIfMissing: true)
        #expect(first.secret(for: "csrf") == again.secret(for: "csrf"), "the same file gives the same keys")
        #expect(first.secret(for: "csrf") != first.secret(for: "built-in app 1 client secret"), "one key per purpose")
        #expect(first.secret(for: "csrf") != ServerSecret.generate().secret(for: "csrf"))
        #expect(throws: ServerSecretError.self) { try ServerSecret.create(at: path) }
        #expect(try ServerSecret.load(from: path, createIfMissing: false).secret(for: "csrf") == first.secret(for: "csrf"))
        try "not a secret\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ServerSecretError.self) { try ServerSecret.load(from: path, createIfMissing: true) }
    }
}
