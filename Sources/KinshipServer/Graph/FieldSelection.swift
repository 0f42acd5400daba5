/// The `fields` parameter: `id,name,picture.type(large).width(200)`.
struct FieldSelection: Sendable, Equatable {
    struct Field: Sendable, Equatable {
        let name: String
        /// `type(large)` → `["type": "large"]`.
        let modifiers: [String: String]
    }

    let fields: [Field]

    /// Parses a field list; names are `[a-z_]` words, modifiers `name(value)` after a dot.
    init(parsing text: String?, default defaults: [String]) throws(GraphError) {
        guard let text, text.contains(where: { $0 != " " }) else {
            fields = defaults.map { Field(name: $0, modifiers: [:]) }
            return
        }
        var fields: [Field] = []
        for item in text.split(separator: ",") {
            let parts = item.trimmingSpaces.split(separator: ".", omittingEmptySubsequences: false)
            guard let name = parts.first, Self.isName(name) else {
                throw .invalidParameter("Syntax error in fields: \"\(item)\"")
            }
            var modifiers: [String: String] = [:]
            for modifier in parts.dropFirst() {
                guard let open = modifier.firstIndex(of: "("), modifier.last == ")",
                    Self.isName(modifier[..<open])
                else { throw .invalidParameter("Syntax error in fields: \"\(item)\"") }
                modifiers[String(modifier[..<open])] = String(modifier[modifier.index(after: open)..<modifier.index(before: modifier.endIndex)])
            }
            if !fields.contains(where: { $0.name == name }) { fields.append(Field(name: String(name), modifiers: modifiers)) }
        }
        self.fields = fields
    }

    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 64 && text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLowercase || $0.isNumber)) }
    }
}

extension Substring {
    /// Without leading and trailing spaces (cheaper than Foundation's trimming on a hot path).
    var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return self[endIndex...] }
        return self[first...last]
    }
}
