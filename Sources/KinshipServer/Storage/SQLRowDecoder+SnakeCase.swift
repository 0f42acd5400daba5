import NIOConcurrencyHelpers
import SQLKit

extension SQLRowDecoder {
    /// Column names in snake_case map to Swift properties in camelCase, as SQLKit's
    /// `.convertFromSnakeCase` maps them, with each property's column name worked out once and
    /// remembered: SQLKit's strategy works it out again, Character by Character, for every column
    /// of every row read (a visible share of a token exchange's CPU in the profile).
    static let snakeCase = SQLRowDecoder(
        keyDecodingStrategy: .custom { path in
            SnakeCaseColumn(stringValue: SnakeCaseColumn.name(of: path.last?.stringValue ?? ""))
        }
    )
}

/// A column name in snake_case, as the decoder looks it up.
struct SnakeCaseColumn: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }

    private static let known = NIOLockedValueBox<[String: String]>([:])

    /// The column name of a property: `userId` → `user_id`, `statusURL` → `status_uRL` (SQLKit's
    /// rule, kept so that every model reads the columns it read before).
    static func name(of property: String) -> String {
        known.withLockedValue { known in
            if let name = known[property] { return name }
            let name = converted(property)
            known[property] = name
            return name
        }
    }

    /// SQLKit's `convertedToSnakeCase`: words start at each uppercase letter (a run of capitals is
    /// one word, up to the capital that starts the next lowercase word); each word's first letter
    /// is lowercased; words are joined by `_`.
    static func converted(_ property: String) -> String {
        guard !property.isEmpty else { return property }
        var words: [Range<String.Index>] = []
        var wordStart = property.startIndex
        var searchIndex = property.index(after: wordStart)
        while let upperCaseIndex = property[searchIndex...].firstIndex(where: \.isUppercase) {
            words.append(wordStart..<upperCaseIndex)
            wordStart = upperCaseIndex
            guard let lowerCaseIndex = property[upperCaseIndex...].firstIndex(where: \.isLowercase) else { break }
            searchIndex = lowerCaseIndex
            if lowerCaseIndex != property.index(after: upperCaseIndex) {
                let beforeLowerIndex = property.index(before: lowerCaseIndex)
                words.append(upperCaseIndex..<beforeLowerIndex)
                wordStart = beforeLowerIndex
            }
        }
        words.append(wordStart..<property.endIndex)
        return words.map { word in
            let text = property[word]
            return text.isEmpty ? "" : text.prefix(1).lowercased() + text.dropFirst()
        }.joined(separator: "_")
    }
}
