import Foundation

/// The admin commands' output: one JSON object on standard output, keys sorted.
enum JSONOutput {
    static func print(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        Swift.print(String(decoding: data, as: UTF8.self))
    }
}
