import Foundation
import SQLKit

/// The words a person is found by on the friends page, kept in `person_search_terms` so a search
/// is an index range, not a read of every name.
///
/// Each word of the name is a term, folded (no case, no accents: `Émile` is `emile`); a word in a
/// script written without spaces (Chinese, Japanese, Korean) gives every one of its endings too, so
/// `伟` finds `张伟`. A search finds a person when each word typed begins one of their terms:
/// `ada lov` finds Ada Lovelace, as names are typed into a people search.
enum PersonSearchTerms {
    /// The terms of a name, each once.
    static func terms(ofName name: String) -> [String] {
        var terms: [String] = []
        for word in words(of: name) {
            let characters = Array(word)
            let endings = characters.contains(where: isWrittenWithoutSpaces) ? characters.indices : 0..<1
            for start in endings {
                let term = String(characters[start...])
                if !terms.contains(term) { terms.append(term) }
            }
        }
        return terms
    }

    /// The folded words of what someone typed into the search box (at most four are used).
    static func words(ofQuery text: String) -> [String] {
        Array(words(of: text).prefix(4))
    }

    /// Replaces a person's terms with those of `name`, in the caller's write transaction.
    static func store(for userID: String, name: String, in sql: any SQLDatabase) async throws {
        try await sql.raw("DELETE FROM person_search_terms WHERE user_id = \(bind: userID)").run()
        try await insert([(userID, name)], in: sql)
    }

    /// Adds the terms of these people's names, in the caller's write transaction: a few hundred
    /// rows a statement.
    static func insert(_ people: [(id: String, name: String)], in sql: any SQLDatabase) async throws {
        let rows = people.flatMap { person in terms(ofName: person.name).map { (term: $0, userID: person.id) } }
        for start in stride(from: 0, to: rows.count, by: 400) {
            let batch = rows[start..<min(start + 400, rows.count)]
            let values = SQLList(batch.map { SQLQueryString("(\(bind: $0.term), \(bind: $0.userID))") })
            try await sql.raw("INSERT INTO person_search_terms (term, user_id) VALUES \(values) ON CONFLICT DO NOTHING").run()
        }
    }

    /// The highest string that begins with `prefix`, for the range `term >= prefix AND term < upper`:
    /// terms compare by their bytes (`COLLATE "C"` on PostgreSQL), and no name holds U+10FFFF.
    static func upperBound(of prefix: String) -> String { prefix + "\u{10FFFF}" }

    private static func words(of text: String) -> [String] {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber })
            .map { String($0.prefix(64)) }
    }

    private static func isWrittenWithoutSpaces(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x2FA1F: true
            default: false
            }
        }
    }
}
