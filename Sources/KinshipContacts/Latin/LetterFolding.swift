import Foundation

/// Case, accent, width and compatibility-form folding of single characters, precomputed once for the blocks names use
/// (Latin-1 and Latin Extended, Greek, Cyrillic) so that folding a name costs a lookup a letter.
enum LetterFolding {
    /// The range the table covers: Latin-1 Supplement up to the end of Greek Extended.
    private static let tableStart: UInt32 = 0x00C0
    private static let tableEnd: UInt32 = 0x1FFF

    /// Letters that do not decompose but have an accepted base spelling.
    private static let special: [Unicode.Scalar: String] = [
        "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d",
        "ł": "l", "Ł": "l", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d", "ı": "i", "ŋ": "ng", "Ŋ": "ng", "ħ": "h", "Ħ": "h",
    ]

    /// The folded UTF-8 of each scalar in the table's range (empty for a combining mark).
    private static let table: [[UInt8]] = (tableStart...tableEnd).map { value in
        guard let scalar = Unicode.Scalar(value) else { return [] }
        if let spelled = special[scalar] { return Array(spelled.utf8) }
        if isCombiningMark(scalar) { return [] }
        let base = String(
            String.UnicodeScalarView(
                String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars.filter { !isCombiningMark($0) }
            )
        )
        return Array(base.lowercased().utf8)
    }

    /// Whether a scalar is a combining mark (an accent written after its letter).
    static func isCombiningMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// Appends the folded form of `scalar` to `output`: lowercase, accents removed, full-width
    /// forms narrowed; characters of other scripts are lowercased and otherwise kept.
    @inline(__always)
    static func append(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            output.append(lowercaseASCII(UInt8(value)))
        } else if value >= tableStart, value <= tableEnd {
            output.append(contentsOf: table[Int(value - tableStart)])
        } else if value >= 0xFF01, value <= 0xFF5E {
            output.append(lowercaseASCII(UInt8(value - 0xFEE0)))
        } else if value >= 0x2E80, value <= 0xD7FF {
            appendUTF8(scalar, to: &output)
        } else if isCombiningMark(scalar) {
            return
        } else if let plain = CompatibilityForms.shared.form(of: scalar) {
            for part in plain { append(part, to: &output) }
        } else if scalar.properties.changesWhenLowercased {
            output.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
        } else {
            appendUTF8(scalar, to: &output)
        }
    }

    /// The folded UTF-8 of a scalar of Latin-1 up to Greek Extended (U+00C0–U+1FFF), or `nil`
    /// outside that range.
    @inline(__always)
    static func tabulated(_ value: UInt32) -> [UInt8]? {
        value >= tableStart && value <= tableEnd ? table[Int(value - tableStart)] : nil
    }

    /// The folded form of a whole string, as UTF-8.
    static func fold(_ string: String) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(string.utf8.count)
        fold(string, into: &output)
        return output
    }

    /// Appends the folded form of a whole string to `output`; plain ASCII takes a byte loop.
    static func fold(_ string: String, into output: inout [UInt8]) {
        let wasASCII = string.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 >= 0x80 }) else { return false }
            for byte in bytes { output.append(lowercaseASCII(byte)) }
            return true
        }
        guard wasASCII != true else { return }
        for scalar in string.unicodeScalars { append(scalar, to: &output) }
    }

    @inline(__always)
    static func lowercaseASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    @inline(__always)
    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        UTF8.encode(scalar) { output.append($0) }
    }
}
