/// Romanization of the scripts contact names most often come in besides Latin and Han, as small
/// tables: ICU's general transliterator costs about 200 µs a name, these a lookup a letter.
enum ScriptTables {
    /// Lowercase Greek letters without accents (accents are folded away first), modern values.
    static let greek: [Unicode.Scalar: String] = [
        "α": "a", "β": "v", "γ": "g", "δ": "d", "ε": "e", "ζ": "z", "η": "i", "θ": "th", "ι": "i", "κ": "k",
        "λ": "l", "μ": "m", "ν": "n", "ξ": "x", "ο": "o", "π": "p", "ρ": "r", "σ": "s", "ς": "s", "τ": "t",
        "υ": "y", "φ": "f", "χ": "ch", "ψ": "ps", "ω": "o",
    ]

    /// Lowercase Cyrillic letters (Russian, Ukrainian, Belarusian, Serbian, Macedonian, Bulgarian).
    static let cyrillic: [Unicode.Scalar: String] = [
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ж": "zh", "з": "z", "и": "i", "й": "y",
        "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t", "у": "u",
        "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ы": "y", "ь": "", "э": "e",
        "ю": "yu", "я": "ya", "і": "i", "є": "ye", "ґ": "g", "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj",
        "ћ": "c", "џ": "dz", "ѕ": "dz", "ѓ": "gj", "ќ": "kj",
    ]

    /// Greek and Cyrillic letters (U+0370–U+04FF, U+1F00–U+1FFF) of any case and accent, in Latin
    /// letters: the folding table and the two tables above, joined once.
    static func greekOrCyrillicLatin(_ value: UInt32) -> [UInt8]? {
        switch value {
        case 0x0370...0x04FF: greekAndCyrillic[Int(value - 0x0370)]
        case 0x1F00...0x1FFF: greekExtended[Int(value - 0x1F00)]
        default: nil
        }
    }

    private static let greekAndCyrillic: [[UInt8]] = (0x0370...0x04FF).map(latinLetters)
    private static let greekExtended: [[UInt8]] = (0x1F00...0x1FFF).map(latinLetters)

    private static func latinLetters(_ value: UInt32) -> [UInt8] {
        guard let folded = LetterFolding.tabulated(value), let base = String(decoding: folded, as: UTF8.self).unicodeScalars.first
        else { return [] }
        return Array((greek[base] ?? cyrillic[base] ?? "").utf8)
    }

    /// Hiragana (katakana is mapped onto it first), Hepburn romanization.
    static let kana: [Unicode.Scalar: String] = [
        "ぁ": "a", "あ": "a", "ぃ": "i", "い": "i", "ぅ": "u", "う": "u", "ぇ": "e", "え": "e", "ぉ": "o", "お": "o",
        "か": "ka", "が": "ga", "き": "ki", "ぎ": "gi", "く": "ku", "ぐ": "gu", "け": "ke", "げ": "ge", "こ": "ko", "ご": "go",
        "さ": "sa", "ざ": "za", "し": "shi", "じ": "ji", "す": "su", "ず": "zu", "せ": "se", "ぜ": "ze", "そ": "so", "ぞ": "zo",
        "た": "ta", "だ": "da", "ち": "chi", "ぢ": "ji", "つ": "tsu", "づ": "zu", "て": "te", "で": "de", "と": "to", "ど": "do",
        "な": "na", "に": "ni", "ぬ": "nu", "ね": "ne", "の": "no", "は": "ha", "ば": "ba", "ぱ": "pa", "ひ": "hi", "び": "bi",
        "ぴ": "pi", "ふ": "fu", "ぶ": "bu", "ぷ": "pu", "へ": "he", "べ": "be", "ぺ": "pe", "ほ": "ho", "ぼ": "bo", "ぽ": "po",
        "ま": "ma", "み": "mi", "む": "mu", "め": "me", "も": "mo", "や": "ya", "ゆ": "yu", "よ": "yo", "ら": "ra", "り": "ri",
        "る": "ru", "れ": "re", "ろ": "ro", "ゎ": "wa", "わ": "wa", "ゐ": "i", "ゑ": "e", "を": "o", "ん": "n", "ゔ": "vu",
        "ゕ": "ka", "ゖ": "ke",
    ]

    /// The small kana that turn the syllable before into a contracted one (き + ゃ = kya).
    static let smallYa: [Unicode.Scalar: String] = ["ゃ": "a", "ゅ": "u", "ょ": "o"]

    /// The small kana that doubles the next consonant (っ).
    static let smallTsu: Unicode.Scalar = "っ"

    /// The Hangul syllable block.
    static let hangul: ClosedRange<UInt32> = 0xAC00...0xD7A3

    private static let hangulInitials = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
    private static let hangulVowels = [
        "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu", "eu", "ui", "i",
    ]
    private static let hangulFinals = [
        "", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng", "t", "t",
        "k", "t", "p", "t",
    ]

    /// A Hangul syllable in the Revised Romanization (김 → gim), computed from its jamo.
    static func romanizeHangul(_ scalar: Unicode.Scalar) -> String {
        let index = Int(scalar.value - hangul.lowerBound)
        let initial = index / (21 * 28)
        let vowel = (index % (21 * 28)) / 28
        let final = index % 28
        return hangulInitials[initial] + hangulVowels[vowel] + hangulFinals[final]
    }
}
