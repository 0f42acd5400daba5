import Foundation

/// A name written in Latin letters: lowercase ASCII words, the index letter it files under, and
/// whether it had Han characters (which makes pinyin search apply).
struct LatinName: Sendable, Equatable {
    /// Latin words; each Han character is a word of its own (its pinyin syllable).
    var words: [[UInt8]] = []
    var hasHan = false
    /// `a`…`z` of the first character with a Latin form; `nil` (the `#` section) when the name
    /// starts with a digit, a symbol or an emoji, or is empty.
    var initialLetter: UInt8?

    /// The words joined by spaces: the sort key.
    var spaced: [UInt8] { Array(words.joined(separator: [UInt8(ascii: " ")])) }
    /// The words run together ("zhangsan").
    var compact: [UInt8] { Array(words.joined()) }
    /// The first letter of each word ("zs").
    var initials: [UInt8] { words.compactMap(\.first) }
}

/// Writes names of any script in Latin letters, from tables: pinyin for Han (with family-name
/// readings), Revised Romanization for Hangul, Hepburn for kana, Greek and Cyrillic tables, accent
/// folding for Latin. Other scripts fall back to ICU, one character at a time, cached.
enum Latinizer {
    /// - Parameter surnameFirst: the name starts with a family name, so a leading Chinese family
    ///   name is read as a name (曾 → zeng, 尉迟 → yu chi), not as a word.
    static func latinize(_ string: String, surnameFirst: Bool) -> LatinName {
        var builder = Builder()
        var scalars = Substring(string).unicodeScalars[...]
        while let first = scalars.first, first.properties.isWhitespace { scalars.removeFirst() }
        if surnameFirst, let first = scalars.first, isHan(first.value),
            let surname = ChineseSurnames.reading(atStartOf: Array(scalars.prefix(2)))
        {
            for syllable in surname.syllables { builder.addWord(Array(syllable.utf8)) }
            builder.name.hasHan = true
            scalars.removeFirst(surname.length)
        }
        for scalar in scalars { builder.add(scalar) }
        builder.flush()
        return builder.name
    }

    static func isHan(_ value: UInt32) -> Bool {
        (0x3400...0x9FFF).contains(value) || (0xF900...0xFAFF).contains(value) || (0x20000...0x2FFFF).contains(value)
    }

    private struct Builder {
        var name = LatinName()
        var decided = false
        var current: [UInt8] = []
        var doubleNextConsonant = false

        mutating func add(_ scalar: Unicode.Scalar) {
            let value = scalar.value
            if value < 0x80 {
                addASCII(UInt8(value))
            } else if value >= 0xFF01, value <= 0xFF5E {
                addASCII(UInt8(value - 0xFEE0))
            } else if Latinizer.isHan(value) {
                flush()
                name.hasHan = true
                if let reading = PinyinTable.reading(of: scalar) { addWord(Array(reading.utf8)) } else { decide(nil) }
            } else if ScriptTables.hangul.contains(value) {
                appendLetters(ScriptTables.romanizeHangul(scalar))
            } else if (0x3041...0x3096).contains(value) || (0x30A1...0x30F6).contains(value) {
                addKana(value >= 0x30A1 ? Unicode.Scalar(value - 0x60)! : scalar)
            } else if value == 0x30FC || LetterFolding.isCombiningMark(scalar) {
                return
            } else {
                addOther(scalar)
            }
        }

        mutating func addASCII(_ byte: UInt8) {
            let lower = LetterFolding.lowercaseASCII(byte)
            if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lower) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(lower) {
                decide(lower)
                current.append(lower)
            } else {
                flush()
                if lower != UInt8(ascii: " ") && lower != UInt8(ascii: "\t") { decide(nil) }
            }
        }

        mutating func addKana(_ hiragana: Unicode.Scalar) {
            if hiragana == ScriptTables.smallTsu {
                doubleNextConsonant = true
            } else if let vowel = ScriptTables.smallYa[hiragana] {
                if current.last == UInt8(ascii: "i") {
                    current.removeLast()
                    let soft = current.suffix(2) == Array("sh".utf8) || current.suffix(2) == Array("ch".utf8) || current.last == UInt8(ascii: "j")
                    if !soft { current.append(UInt8(ascii: "y")) }
                    current.append(contentsOf: vowel.utf8)
                } else {
                    appendLetters("y" + vowel)
                }
            } else if let syllable = ScriptTables.kana[hiragana] {
                if doubleNextConsonant, let consonant = syllable.utf8.first, !"aeiou".utf8.contains(consonant) {
                    current.append(consonant)
                }
                doubleNextConsonant = false
                appendLetters(syllable)
            }
        }

        mutating func addOther(_ scalar: Unicode.Scalar) {
            var folded: [UInt8] = []
            LetterFolding.append(scalar, to: &folded)
            if !folded.isEmpty, folded.allSatisfy({ $0 < 0x80 }) {
                for byte in folded { addASCII(byte) }
                return
            }
            let base = LetterFolding.foldedScalar(scalar)
            if let letters = ScriptTables.greek[base] ?? ScriptTables.cyrillic[base] {
                appendLetters(letters)
            } else if scalar.properties.isAlphabetic {
                appendLetters(FallbackTransliteration.shared.latin(for: scalar))
            } else {
                flush()
                if !scalar.properties.isWhitespace { decide(nil) }
            }
        }

        mutating func appendLetters(_ letters: String) {
            for byte in letters.utf8 where (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
                decide(byte)
                current.append(byte)
            }
        }

        mutating func addWord(_ word: [UInt8]) {
            flush()
            decide(word.first)
            name.words.append(word)
        }

        mutating func flush() {
            if !current.isEmpty {
                name.words.append(current)
                current.removeAll(keepingCapacity: true)
            }
        }

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
        let latin = String(scalar).applyingTransform(.toLatin, reverse: false)?
            .applyingTransform(.stripDiacritics, reverse: false)?.lowercased() ?? ""
        lock.withLock { cache[scalar] = latin }
        return latin
    }
}
