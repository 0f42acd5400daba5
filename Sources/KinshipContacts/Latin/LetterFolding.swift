import Foundation

/// Case, accent and width folding of single characters, precomputed once for the blocks names use
/// (Latin-1 and Latin Extended, Greek, Cyrillic) so that folding a name costs a lookup a letter.
enum LetterFolding {
    /// Blocks whose letters decompose into a base letter and marks.
    private static let tabulated: [ClosedRange<UInt32>] = [0x00C0...0x024F, 0x0370...0x04FF, 0x1E00...0x1FFF]

    /// Letters that do not decompose but have an accepted base spelling.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d",
        "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ı": "i", "ŋ": "ng", "Ŋ": "ng", "ħ": "h", "Ħ": "h",
    ]

    private static let table: [UInt32: String] = {
        var table: [UInt32: String] = [:]
        for range in tabulated {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                if let spelled = special[scalar] {
                    table[value] = spelled
                    continue
                }
                let folded = String(
                    String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                        .filter { !isCombiningMark($0) }.map(Character.init)
                ).lowercased()
                if folded != String(scalar) { table[value] = folded }
            }
        }
        return table
    }()

    /// Whether a scalar is a combining mark (an accent written after its letter).
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Appends the folded form of `scalar` to `output`: lowercase, accents removed, full-width
    /// forms narrowed; characters of other scripts are lowercased and otherwise kept.
    static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            output.append(lowercaseASCII(UInt8(value)))
        } else if value >= 0xFF01, value <= 0xFF5E {
            output.append(lowercaseASCII(UInt8(value - 0xFEE0)))
        } else if let folded = table[value] {
            output.append(contentsOf: folded.utf8)
        } else if isCombiningMark(scalar) {
            return
        } else if scalar.properties.changesWhenLowercased {
            output.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
        } else {
            output.append(contentsOf: String(scalar).utf8)
        }
    }

    /// The folded form of a whole string, as UTF-8.
    static func fold(_ string: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars { append(scalar, to: &output) }
        return output
    }

    /// The folded form of one scalar as a single scalar when it folds to one (for script tables).
    static func foldedScalar(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard let folded = table[scalar.value], folded.unicodeScalars.count == 1, let first = folded.unicodeScalars.first else {
            return scalar.properties.changesWhenLowercased ? (scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar) : scalar
        }
        return first
    }

    static func lowercaseASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }
}
