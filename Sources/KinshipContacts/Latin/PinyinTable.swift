/// The toneless pinyin of each Han character, generated from ICU's Han-Latin data (see
/// `scripts/generate/pinyin-table.swift`) so that a lookup costs an array index, not a transform.
enum PinyinTable {
    /// The syllable of a Han character as ASCII bytes, or `nil` for a character outside the table
    /// or without a reading.
    static func reading(of scalar: Unicode.Scalar) -> [UInt8]? {
        guard scalar.value >= firstScalar, scalar.value <= lastScalar else { return nil }
        let index = Int(readings[Int(scalar.value - firstScalar)])
        return index == 0 ? nil : syllableBytes[index]
    }

    private static let syllableBytes: [[UInt8]] = syllables.map { Array($0.utf8) }

    private static let readings: [UInt16] = {
        var values: [UInt16] = []
        values.reserveCapacity(Int(lastScalar - firstScalar + 1))
        var high: UInt16?
        for byte in encodedReadings.utf8 where byte != UInt8(ascii: "\n") {
            let digit = base64Value(byte)
            if let first = high {
                values.append(first * 64 + digit)
                high = nil
            } else {
                high = digit
            }
        }
        return values
    }()

    private static func base64Value(_ byte: UInt8) -> UInt16 {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt16(byte - UInt8(ascii: "A")) + 10
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt16(byte - UInt8(ascii: "a")) + 36
        case UInt8(ascii: "+"): 62
        default: 63
        }
    }
}
