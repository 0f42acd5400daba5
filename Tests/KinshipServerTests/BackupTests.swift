import Foundation
import Logging
import Testing

@testable import KinshipServer

/// `kinship backup`: a consistent copy of the SQLite database while it is written.
@Suite("Backing up the database", .timeLimit(.minutes(3)))
struct BackupTests {
    @Test("a backup taken while 32 people sign up at once opens, passes its integrity check and holds whole accounts")
    func duringWrites() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-backup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let copy = folder + "/copy.sqlite"
        let signedUp = try await withPlatform(.sqlite) { platform in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<32 {
                    group.addTask {
                        _ = try await platform.users.create(NewUser(name: "Person \(index)", email: "p\(index)@example.com", password: "12345678"))
                    }
                }
                group.addTask {
                    let backup = try await Database.backUp(platform.database.location, to: copy)
                    #expect(backup.path == copy && backup.bytes > 0)
                }
                try await group.waitForAll()
            }
            await #expect(throws: DatabaseBackupError.cannotCreate(copy, "it exists already")) {
                try await Database.backUp(platform.database.location, to: copy)
            }
            return try await platform.users.list().count
        }
        #expect(signedUp == 32)
        let permissions = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "the copy holds password hashes")
        let restored = try await Platform.open(.sqlite(path: copy), bcryptCost: 4, logger: Logger(label: "test"))
        let people = try await restored.users.list()
        #expect(people.count <= 32)
        for person in people {
            #expect(try await restored.users.verifyPassword("12345678", of: person), "every copied account is whole")
        }
        await restored.close()
    }

    @Test("a backup of a database that is not there, or of PostgreSQL, says what to do and leaves nothing behind")
    func refusals() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-backup-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(throws: DatabaseBackupError.noDatabase(folder + "/missing.sqlite")) {
            try await Database.backUp(.sqlite(path: folder + "/missing.sqlite"), to: folder + "/copy.sqlite")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/missing.sqlite"), "no empty database was made")
        #expect(!FileManager.default.fileExists(atPath: folder + "/copy.sqlite"))
        try await withPlatform(.postgres) { platform in
            await #expect(throws: DatabaseBackupError.postgres) {
                try await Database.backUp(platform.database.location, to: folder + "/copy.sqlite")
            }
        }
        #expect(DatabaseBackupError.postgres.description.contains("pg_dump"))
    }
}
