import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipServer
import Logging
import NIOCore
import PostgresKit
import Testing

/// The storage engines every storage-touching test runs on.
///
/// PostgreSQL needs `KINSHIP_TEST_POSTGRES_URL` (the test script starts a throw-away server and
/// sets it); without it every PostgreSQL test fails. `KINSHIP_TEST_ENGINES=sqlite` runs only
/// SQLite, for a quick local loop; a name that is not an engine stops the run.
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static var enabled: [TestEngine] {
        guard let list = ProcessInfo.processInfo.environment["KINSHIP_TEST_ENGINES"] else { return allCases }
        return list.split(separator: ",").map { name in
            guard let engine = TestEngine(rawValue: String(name)) else {
                preconditionFailure("KINSHIP_TEST_ENGINES names \"\(name)\"; the engines are \(allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            return engine
        }
    }

    /// A fresh, empty database of this engine: a new SQLite file, or a new PostgreSQL schema.
    func makeScratchDatabase() async throws -> ScratchDatabase {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-tests-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return ScratchDatabase(location: .sqlite(path: folder.appendingPathComponent("kinship.sqlite").path)) {
                try? FileManager.default.removeItem(at: folder)
            }
        case .postgres:
            guard let url = ProcessInfo.processInfo.environment["KINSHIP_TEST_POSTGRES_URL"] else {
                throw ScratchDatabaseError.postgresNotConfigured
            }
            let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let admin = try await Database.open(try DatabaseLocation(parsing: url), logger: Logger(label: "test.postgres"))
            do {
                try await admin.write { sql in try await sql.raw("CREATE SCHEMA \(ident: schema)").run() }
            } catch {
                await admin.close()
                throw error
            }
            var configuration = try SQLPostgresConfiguration(url: url)
            configuration.searchPath = [schema]
            return ScratchDatabase(location: .postgres(configuration)) {
                try? await admin.write { sql in try await sql.raw("DROP SCHEMA \(ident: schema) CASCADE").run() }
                await admin.close()
            }
        }
    }
}

/// A database that exists for one test.
struct ScratchDatabase: Sendable {
    let location: DatabaseLocation
    let remove: @Sendable () async -> Void
}

enum ScratchDatabaseError: Error, CustomStringConvertible {
    case postgresNotConfigured

    var description: String {
        "KINSHIP_TEST_POSTGRES_URL is not set: run scripts/test (it starts PostgreSQL), or set KINSHIP_TEST_ENGINES=sqlite."
    }
}
