/// The `fields` parameter: `id,name,picture.type(large).width(200)`.
struct FieldSelection: Sendable, Equatable {
    struct Field: Sendable, Equatable {
        let name: String
        /// `type(large)` → `["type": "large"]`.
        let modifiers: [String: String]
    }

    let fields: [Field]

    /// The most fields one call may name; the profile has fewer than 20.
    static let maximumCount = 100

    /// Parses a field list; names are `[a-z_]` words, modifiers `name(value)` after a dot. Read on
    /// UTF-8 bytes rather than characters: this runs for every Graph call that names its fields.
    /// Linear in the length of the text; a name given twice counts once, its first modifiers win.
    init(parsing text: String?, default defaults: [String]) throws(GraphError) {
        guard let text, text.utf8.contains(where: { $0 != Self.space }) else {
            fields = defaults.map { Field(name: $0, modifiers: [:]) }
            return
        }
        var fields: [Field] = []
        var seen: Set<String> = []
        for item in text.utf8.split(separator: UInt8(ascii: ",")) {
            let parts = Self.trimmingSpaces(item).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard let name = parts.first, Self.isName(name) else { throw Self.syntaxError(item) }
            var modifiers: [String: String] = [:]
            for modifier in parts.dropFirst() {
                guard let open = modifier.firstIndex(of: UInt8(ascii: "(")), modifier.last == UInt8(ascii: ")"),
                    Self.isName(modifier[..<open])
                else { throw Self.syntaxError(item) }
                modifiers[String(Substring(modifier[..<open]))] =
                    String(Substring(modifier[modifier.index(after: open)..<modifier.index(before: modifier.endIndex)]))
            }
            let fieldName = String(Substring(name))
            if seen.insert(fieldName).inserted {
                guard fields.count < Self.maximumCount else {
                    throw .invalidParameter("fields names more than \(Self.maximumCount) fields")
                }
                fields.append(Field(name: fieldName, modifiers: modifiers))
            }
        }
        self.fields = fields
    }

    private static let space = UInt8(ascii: " ")

    private static func syntaxError(_ item: Substring.UTF8View) -> GraphError {
        .invalidParameter("Syntax error in fields: \"\(Substring(item))\"")
    }

    private static func trimmingSpaces(_ bytes: Substring.UTF8View) -> Substring.UTF8View {
        guard let first = bytes.firstIndex(where: { $0 != space }), let last = bytes.lastIndex(where: { $0 != space }) else {
            return bytes[bytes.endIndex...]
        }
        return bytes[first...last]
    }

    /// `[a-z0-9_]{1,64}`.
    private static func isName(_ bytes: Substring.UTF8View) -> Bool {
        !bytes.isEmpty && bytes.count <= 64
            && bytes.allSatisfy {
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || $0 == UInt8(ascii: "_")
            }
    }
}
