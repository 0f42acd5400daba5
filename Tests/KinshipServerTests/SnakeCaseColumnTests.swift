import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Testing

@testable import KinshipServer

@Suite("Column names of decoded rows")
struct SnakeCaseColumnTests {
    /// Property names of every shape: plain camelCase, runs of capitals, digits, a leading capital.
    struct Shapes: Decodable {
        var id: String
        var userId: String
        var redirectUris: String
        var isFindableByEmail: String
        var statusURL: String
        var urlValue: String
        var URLValue: String
        var sha256Hash: String
        var a: String
        var refreshFamilyID: String?
    }

    @Test("the remembered conversion asks for exactly the columns SQLKit's convertFromSnakeCase asks for")
    func sameColumnsAsSQLKit() throws {
        let sqlKit = RecordingRow()
        let ours = RecordingRow()
        _ = try SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase).decode(Shapes.self, from: sqlKit)
        _ = try SQLRowDecoder.snakeCase.decode(Shapes.self, from: ours)
        #expect(ours.asked == sqlKit.asked)
        #expect(ours.asked.contains("user_id") && ours.asked.contains("is_findable_by_email"))
        _ = try SQLRowDecoder.snakeCase.decode(Shapes.self, from: ours)
        #expect(ours.asked == sqlKit.asked + sqlKit.asked, "the second decoding, from memory, asks for the same columns")
    }

    @Test("decodings on many tasks at once, while the names are first remembered, all ask for SQLKit's columns")
    func concurrentFirstUse() async throws {
        struct Fresh: Decodable {
            var concurrentUserId: String
            var concurrentStatusURL: String
            var concurrentSha256Hash: String
        }
        let expected = RecordingRow()
        _ = try SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase).decode(Fresh.self, from: expected)
        let asked = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<64 {
                group.addTask {
                    let row = RecordingRow()
                    _ = try SQLRowDecoder.snakeCase.decode(Fresh.self, from: row)
                    return row.asked
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(asked.count == 64)
        #expect(asked.allSatisfy { $0 == expected.asked })
    }
}

/// A row that has every column, each holding its own name (those starting with `refresh` are
/// NULL), and records the names it is asked for.
private final class RecordingRow: SQLRow, Sendable {
    private let names = NIOLockedValueBox<[String]>([])
    var asked: [String] { names.withLockedValue { $0 } }

    var allColumns: [String] { [] }

    func contains(column: String) -> Bool {
        names.withLockedValue { $0.append(column) }
        return true
    }

    func decodeNil(column: String) throws -> Bool {
        names.withLockedValue { $0.append(column) }
        return column.hasPrefix("refresh")
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        names.withLockedValue { $0.append(column) }
        guard let value = column as? D else { throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: column)) }
        return value
    }
}
