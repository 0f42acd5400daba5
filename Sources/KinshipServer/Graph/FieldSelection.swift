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

    /// `[a-z0-9_]{1,64}`, checked on the UTF-8 bytes: this runs for every field of every call.
    private static func isName(_ text: Substring) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= 64
            && bytes.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "_") }
    }
}

extension Substring {
    /// Without leading and trailing spaces (cheaper than Foundation's trimming on a hot path).
    var trimmingSpaces: Substring {
        guard let first = firstIndex(where: { $0 != " " }), let last = lastIndex(where: { $0 != " " }) else { return self[endIndex...] }
        return self[first...last]
    }
}
