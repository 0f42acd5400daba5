/// The code a person types on `/device` (RFC 8628 §6.1): 8 letters from 20 consonants, with no
/// vowels (no words) and no look-alikes (no 0/O, 1/I/L confusion: no digits, no I, O, U), shown
/// as `BCDF-GHJK`. 20⁸ ≈ 2.6 × 10¹⁰ codes, against at most a few thousand pending at once and
/// typing limited per address and per person.
struct UserCode: Hashable, Sendable, CustomStringConvertible {
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    static let length = 8

    /// The code without its dash: what is stored and compared.
    let normalized: String

    /// A new random code.
    static func random() -> UserCode {
        var generator = SystemRandomNumberGenerator()
        return UserCode(normalized: String((0..<length).map { _ in alphabet.randomElement(using: &generator)! }))
    }

    /// A code as a person typed it: case, spaces and dashes do not matter; `nil` when it cannot
    /// be a code (wrong length or a letter not in the alphabet).
    init?(typed: String) {
        let kept = typed.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        guard kept.count == Self.length, kept.allSatisfy(Self.alphabet.contains) else { return nil }
        normalized = kept
    }

    private init(normalized: String) {
        self.normalized = normalized
    }

    /// `BCDF-GHJK`.
    var description: String {
        String(normalized.prefix(Self.length / 2)) + "-" + String(normalized.suffix(Self.length / 2))
    }
}
