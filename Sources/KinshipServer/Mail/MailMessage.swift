import Foundation

/// A plain-text email, rendered as RFC 5322 with MIME: UTF-8 throughout, the subject as an
/// RFC 2047 encoded word when it is not ASCII, the body in base64 (so no line of it can end the
/// SMTP `DATA` early or be mangled by a relay).
struct MailMessage: Sendable {
    /// What the message is for, for the log: "password reset".
    let purpose: String
    /// The person it is about, for the log (addresses are never logged).
    let userID: String
    let recipient: String
    /// The recipient's name, for the `To:` header.
    let recipientName: String?
    let subject: String
    let text: String

    /// The message as sent after `DATA`, lines ending in CRLF, without the final `.` line.
    func rendered(sender: String, senderName: String, date: Date, messageID: String) -> String {
        var lines = [
            "From: " + Self.mailbox(senderName, sender),
            "To: " + Self.mailbox(recipientName, recipient),
            "Subject: " + Self.headerText(subject),
            "Date: " + Self.rfc5322Date(date),
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: base64",
            "Auto-Submitted: auto-generated",
            "",
        ]
        let body = Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8).base64EncodedString()
        var start = body.startIndex
        while start < body.endIndex {
            let end = body.index(start, offsetBy: 76, limitedBy: body.endIndex) ?? body.endIndex
            lines.append(String(body[start..<end]))
            start = end
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `"Name" <address>`, or the address alone.
    private static func mailbox(_ name: String?, _ address: String) -> String {
        guard let name, !name.isEmpty else { return "<\(address)>" }
        return headerText(name) + " <\(address)>"
    }

    /// Header text: as is when it is printable ASCII without quotes, else one RFC 2047 encoded
    /// word per piece of at most 45 bytes (so each stays under the 75-character limit).
    private static func headerText(_ text: String) -> String {
        let flat = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if flat.unicodeScalars.allSatisfy({ (0x20..<0x7F).contains($0.value) && $0 != "\"" }) { return flat }
        var words: [String] = []
        var piece: [UInt8] = []
        for character in flat {
            let bytes = Array(String(character).utf8)
            if piece.count + bytes.count > 45 {
                words.append("=?utf-8?b?" + Data(piece).base64EncodedString() + "?=")
                piece = []
            }
            piece += bytes
        }
        if !piece.isEmpty { words.append("=?utf-8?b?" + Data(piece).base64EncodedString() + "?=") }
        return words.joined(separator: "\r\n ")
    }

    private static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
