import KinshipSQLite
import NIOCore
import SQLKit
import SQLiteKit

/// One row of a result as SQLKit reads it: the values SQLite returned, decoded on demand with
/// SQLiteKit's decoder, so a row reads the same as it did through SQLiteNIO.
///
/// Text read as a `String` and integers read as an `Int` — nearly every column Kinship reads —
/// are taken as they are. Other values go through one `SQLiteDataDecoder` kept for every row:
/// making one per value, as `SQLiteDataDecoder()` does, makes a `JSONDecoder` each time, which
/// cost more than reading the row.
struct SQLiteResultRow: SQLRow {
    let columns: SQLiteColumns
    let values: [SQLiteValue]

    private static let decoder = SQLiteDataDecoder()

    var allColumns: [String] { columns.names }

    func contains(column: String) -> Bool { columns.position(of: column) != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let position = columns.position(of: column) else { return true }
        return values[position] == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let position = columns.position(of: column) else { throw SQLiteFailure.missingColumn(column) }
        switch values[position] {
        case .text(let text) where D.self == String.self: return text as! D
        case .integer(let integer) where D.self == Int.self: return Int(integer) as! D
        case let value: return try Self.decoder.decode(D.self, from: SQLiteData(value))
        }
    }
}

extension SQLiteData {
    /// SQLiteKit's form of a value SQLite returned.
    init(_ value: SQLiteValue) {
        switch value {
        case .integer(let integer): self = .integer(Int(integer))
        case .real(let real): self = .float(real)
        case .text(let text): self = .text(text)
        case .blob(let bytes): self = .blob(ByteBuffer(bytes: bytes))
        case .null: self = .null
        }
    }
}

extension SQLiteValue {
    /// The value SQLite stores for SQLiteKit's encoding of a bound value.
    init(_ data: SQLiteData) {
        switch data {
        case .integer(let integer): self = .integer(Int64(integer))
        case .float(let real): self = .real(real)
        case .text(let text): self = .text(text)
        case .blob(let buffer): self = .blob(Array(buffer.readableBytesView))
        case .null: self = .null
        }
    }
}

extension SQLiteValue {
    /// The value as SQLKit binds it, for a statement noted in a ``StatementLog``.
    var encodable: any Encodable & Sendable {
        switch self {
        case .integer(let integer): Int(integer)
        case .real(let real): real
        case .text(let text): text
        case .blob(let bytes): bytes
        case .null: String?.none
        }
    }
}
