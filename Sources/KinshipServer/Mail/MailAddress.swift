/// What an email address must look like to be accepted at sign-up and written into an SMTP envelope.
enum MailAddress {
    /// One `@`, something on each side, a dotted domain, at most 254 characters, and nothing that
    /// could end an SMTP command or a header (spaces, control characters, angle brackets).
    static func isPlausible(_ address: String) -> Bool {
        guard address.count <= 254, !address.contains(where: \.isWhitespace),
            !address.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "<" || $0 == ">" })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") && !parts[1].hasPrefix(".")
            && !parts[1].hasSuffix(".")
    }
}
