import Foundation

/// A name written in Latin letters: lowercase ASCII words separated by single spaces, the index
/// letter it files under, and whether it had Han characters (which makes pinyin search apply).
struct LatinName: Sendable, Equatable {
    /// Latin words separated by spaces; each Han character is a word of its own (its syllable).
    var spaced: [UInt8] = []
    var hasHan = false
    /// `a`…`z` of the first character with a Latin form; `nil` (the `#` section) when the name
    /// starts with a digit, a symbol or an emoji, or is empty.
    var initialLetter: UInt8?

    /// The first letter of each word ("zs" for 张三).
    var initials: [UInt8] {
        var initials: [UInt8] = []
        var atStart = true
        for byte in spaced {
            if byte == UInt8(ascii: " ") {
                atStart = true
            } else if atStart {
                initials.append(byte)
                atStart = false
            }
        }
        return initials
    }
}

/// Writes names of any script in Latin letters, from tables: pinyin for Han (with family-name
/// readings), Revised Romanization for Hangul, Hepburn for kana, Greek and Cyrillic tables, accent
/// folding for Latin. Other scripts fall back to ICU, one character at a time, cached.
enum Latinizer {
    /// - Parameter surnameFirst: the name starts with a family name, so a leading Chinese family
    ///   name is read as a name (曾 → zeng, 尉迟 → yu chi), not as a word.
    static func latinize(_ string: String, surnameFirst: Bool) -> LatinName {
        var builder = Builder()
        builder.name.spaced.reserveCapacity(string.utf8.count + 8)
        var scalars = string.unicodeScalars[...]
        while let first = scalars.first, isSpace(first) { scalars.removeFirst() }
        if surnameFirst, let first = scalars.first, isHan(first.value) {
            let second = scalars.dropFirst().first
            if let surname = ChineseSurnames.reading(first, second) {
                for syllable in surname.syllables { builder.addWord(syllable) }
                builder.name.hasHan = true
                scalars.removeFirst(surname.length)
            }
        }
        for scalar in scalars { builder.add(scalar) }
        return builder.name
    }

    @inline(__always)
    static func isHan(_ value: UInt32) -> Bool {
        (0x3400...0x9FFF).contains(value) || (0xF900...0xFAFF).contains(value) || (0x20000...0x2FFFF).contains(value)
    }

    /// Unicode white space (the `White_Space` property), by value: asking the property costs a
    /// table lookup per character, and names are mostly letters.
    @inline(__always)
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    private struct Builder {
        var name = LatinName()
        var decided = false
        var inWord = false
        var doubleNextConsonant = false

        mutating func add(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if value < 0x80 {
                addASCII(UInt8(value))
            } else if Latinizer.isHan(value) {
                inWord = false
                name.hasHan = true
                if let reading = PinyinTable.reading(of: scalar) { addWord(reading) } else { decide(nil) }
            } else if value >= 0xFF01, value <= 0xFF5E {
                addASCII(UInt8(value - 0xFEE0))
            } else if ScriptTables.hangul.contains(value) {
                appendLetters(ScriptTables.romanizeHangul(scalar))
            } else if (0x3041...0x3096).contains(value) || (0x30A1...0x30F6).contains(value) {
                addKana(value >= 0x30A1 ? Unicode.Scalar(value - 0x60)! : scalar)
            } else if value == 0x30FC {
                return
            } else {
                addOther(scalar)
            }
        }

        mutating func addASCII(_ byte: UInt8) {
            let lower = LetterFolding.lowercaseASCII(byte)
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lower) {
                decide(lower)
                appendLetter(lower)
            } else {
                inWord = false
                if lower != UInt8(ascii: " ") && lower != UInt8(ascii: "\t") { decide(nil) }
            }
        }

        mutating func addKana(_ hiragana: Unicode.Scalar) {
            if hiragana == ScriptTables.smallTsu {
                doubleNextConsonant = true
            } else if let vowel = ScriptTables.smallYa[hiragana] {
                if inWord, name.spaced.last == UInt8(ascii: "i") {
                    name.spaced.removeLast()
                    let soft =
                        name.spaced.suffix(2) == Array("sh".utf8) || name.spaced.suffix(2) == Array("ch".utf8)
                        || name.spaced.last == UInt8(ascii: "j")
                    if !soft { name.spaced.append(UInt8(ascii: "y")) }
                    name.spaced.append(contentsOf: vowel.utf8)
                } else {
                    appendLetters("y" + vowel)
                }
            } else if let syllable = ScriptTables.kana[hiragana] {
                if doubleNextConsonant, let consonant = syllable.utf8.first, !"aeiou".utf8.contains(consonant) {
                    appendLetter(consonant)
                }
                doubleNextConsonant = false
                appendLetters(syllable)
            }
        }

        mutating func addOther(_ scalar: Unicode.Scalar) {
            if let letters = ScriptTables.greekOrCyrillicLatin(scalar.value) {
                for byte in letters {
                    decide(byte)
                    appendLetter(byte)
                }
            } else if let folded = LetterFolding.tabulated(scalar.value) {
                for byte in folded where byte < 0x80 { addASCII(byte) }
            } else if LetterFolding.isCombiningMark(scalar) {
                return
            } else if let plain = CompatibilityForms.shared.form(of: scalar) {
                for part in plain { add(part) }
            } else if scalar.properties.isAlphabetic {
                appendLetters(FallbackTransliteration.shared.latin(for: scalar))
            } else {
                inWord = false
                if !Latinizer.isSpace(scalar) { decide(nil) }
            }
        }

        mutating func appendLetters(_ letters: String) {
            for byte in letters.utf8 where (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                decide(byte)
                appendLetter(byte)
            }
        }

        @inline(__always)
        mutating func appendLetter(_ byte: UInt8) {
            if !inWord {
                if !name.spaced.isEmpty { name.spaced.append(UInt8(ascii: " ")) }
                inWord = true
            }
            name.spaced.append(byte)
        }

        mutating func addWord(_ word: [UInt8]) {
            guard let first = word.first else { return }
            decide(first)
            if !name.spaced.isEmpty { name.spaced.append(UInt8(ascii: " ")) }
            name.spaced.append(contentsOf: word)
            inWord = false
        }

        @inline(__always)
        mutating func decide(_ letter: UInt8?) {
            guard !decided else { return }
            decided = true
            if let letter, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(letter) { name.initialLetter = letter }
        }
    }
}

/// ICU's transliteration of single characters of the scripts the tables do not cover (Arabic,
/// Hebrew, Thai, Devanagari, …), remembered once asked.
final class FallbackTransliteration: @unchecked Sendable {
    static let shared = FallbackTransliteration()
    private let lock = NSLock()
    private var cache: [Unicode.Scalar: String] = [:]

    func latin(for scalar: Unicode.Scalar) -> String {
        if let known = lock.withLock({ cache[scalar] }) { return known }
        let latin =
            String(scalar).applyingTransform(.toLatin, reverse: false)?
            .applyingTransform(.stripDiacritics, reverse: false)?.lowercased() ?? ""
        lock.withLock { cache[scalar] = latin }
        return latin
    }
}
