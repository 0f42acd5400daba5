/// What a person typed in the search box, folded the way contact names are: case, accents and
/// width do not matter, and for Chinese names full pinyin (`zhangsan`, `zhang san`) and initials
/// (`zs`) find 张三.
struct SearchQuery: Sendable, Equatable {
    let folded: [UInt8]
    /// The query without spaces, for matching run-together pinyin and initials.
    let compact: [UInt8]
    /// Whether the query is plain letters, so it may be pinyin initials.
    let isLetters: Bool

    init(_ text: String) {
        folded = LetterFolding.fold(text.trimmingSpaces())
        compact = folded.filter { $0 != UInt8(ascii: " ") }
        isLetters = !compact.isEmpty && compact.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
    }

    var isEmpty: Bool { folded.isEmpty }

    func matches(_ key: ContactKey) -> Bool {
        if folded.isEmpty || key.haystack.containsBytes(folded) { return true }
        guard isLetters, let pinyin = key.pinyin else { return false }
        return pinyin.containsBytes(compact)
    }
}
