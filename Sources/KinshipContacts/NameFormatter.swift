/// How a list writes a contact's name.
public enum NameFormatter {
    /// The name to show: first and last name in the requested order when both are known
    /// (family name first, without a space, for names in CJK characters), otherwise the name as given.
    public static func displayName(of contact: Contact, order: DisplayOrder) -> String {
        let first = nonEmpty(contact.firstName)
        let middle = nonEmpty(contact.middleName)
        let last = nonEmpty(contact.lastName)
        guard first != nil || last != nil else { return contact.name }
        if [first, last].contains(where: { $0.map(startsWithCJK) ?? false }) {
            return (last ?? "") + (first ?? "")
        }
        switch order {
        case .firstLast: return [first, middle, last].compactMap { $0 }.joined(separator: " ")
        case .lastFirst: return [last, first, middle].compactMap { $0 }.joined(separator: " ")
        }
    }

    static func nonEmpty(_ string: String?) -> String? {
        guard let string else { return nil }
        let trimmed = string.trimmingSpaces()
        return trimmed.isEmpty ? nil : trimmed
    }

    static func startsWithHan(_ string: String) -> Bool {
        for scalar in string.unicodeScalars where !Latinizer.isSpace(scalar) {
            return Latinizer.isHan(scalar.value)
        }
        return false
    }

    static func startsWithCJK(_ string: String) -> Bool {
        guard let first = string.unicodeScalars.first?.value else { return false }
        return Latinizer.isHan(first) || ScriptTables.hangul.contains(first) || (0x3041...0x30FF).contains(first)
    }
}
