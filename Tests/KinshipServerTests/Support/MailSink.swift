import Foundation

@testable import KinshipServer

/// The SMTP servers the test command runs (aiosmtpd, see scripts/lib/smtp.sh), and the mail they
/// received: each keeps a Maildir. A missing server fails the test.
enum MailSink {
    /// A message as the sink stored it, its body decoded.
    struct Message: Sendable {
        let headers: [String: String]
        let text: String
    }

    /// Settings for the plain sink (no TLS, no login).
    static func plain() throws -> SMTPSettings {
        SMTPSettings(host: "127.0.0.1", port: try port("KINSHIP_TEST_SMTP_PORT"), security: .none, sender: "no-reply@kinship.test")
    }

    /// Settings for the sink that requires STARTTLS and then AUTH.
    static func secure() throws -> SMTPSettings {
        let environment = ProcessInfo.processInfo.environment
        guard let certificate = environment["KINSHIP_TEST_SMTPS_CERT"], let username = environment["KINSHIP_TEST_SMTPS_USERNAME"],
            let passwordFile = environment["KINSHIP_TEST_SMTPS_PASSWORD_FILE"]
        else { throw MailSinkError.notRunning }
        let password = try String(contentsOfFile: passwordFile, encoding: .utf8).trimmingCharacters(in: .newlines)
        return SMTPSettings(
            host: "127.0.0.1",
            port: try port("KINSHIP_TEST_SMTPS_PORT"),
            security: .startTLS,
            username: username,
            password: password,
            sender: "no-reply@kinship.test",
            trustedCertificatesFile: certificate
        )
    }

    /// The messages the plain sink (or the secure one) received for `recipient`, oldest first.
    static func messages(to recipient: String, secure: Bool = false) throws -> [Message] {
        guard let folder = ProcessInfo.processInfo.environment[secure ? "KINSHIP_TEST_SMTPS_MAILDIR" : "KINSHIP_TEST_SMTP_MAILDIR"] else {
            throw MailSinkError.notRunning
        }
        let new = URL(fileURLWithPath: folder).appendingPathComponent("new")
        let files = (try? FileManager.default.contentsOfDirectory(at: new, includingPropertiesForKeys: [.creationDateKey])) ?? []
        return try files.sorted { $0.lastPathComponent < $1.lastPathComponent }
            .map { try parse(String(contentsOf: $0, encoding: .utf8)) }
            .filter { $0.headers["to"]?.contains("<\(recipient)>") == true }
    }

    /// Waits (up to 10 s) for the `count`-th message to `recipient` and returns them all.
    static func waitForMessages(to recipient: String, count: Int = 1, secure: Bool = false) async throws -> [Message] {
        for _ in 0..<200 {
            let found = try messages(to: recipient, secure: secure)
            if found.count >= count { return found }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw MailSinkError.noMail(recipient)
    }

    /// The reset link in a message: its path and query on the server.
    static func resetPath(in message: Message) throws -> String {
        guard let match = message.text.firstMatch(of: /https?:\/\/[^\/\s]+(\/password\/reset\?token=[A-Za-z0-9_-]+)/) else {
            throw MailSinkError.noLink(message.text)
        }
        return String(match.1)
    }

    private static func port(_ name: String) throws -> Int {
        guard let port = ProcessInfo.processInfo.environment[name].flatMap(Int.init) else { throw MailSinkError.notRunning }
        return port
    }

    private static func parse(_ raw: String) throws -> Message {
        let normalized = raw.replacingOccurrences(of: "\r\n", with: "\n")
        guard let split = normalized.range(of: "\n\n") else { return Message(headers: [:], text: "") }
        var headers: [String: String] = [:]
        var last: String?
        for line in normalized[..<split.lowerBound].split(separator: "\n") {
            if line.first == " " || line.first == "\t", let last {
                headers[last, default: ""] += String(line)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].lowercased()
                headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                last = name
            }
        }
        let body = String(normalized[split.upperBound...])
        guard headers["content-transfer-encoding"]?.lowercased() == "base64" else { return Message(headers: headers, text: body) }
        let decoded = Data(base64Encoded: body.filter { !$0.isWhitespace }).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return Message(headers: headers, text: decoded.replacingOccurrences(of: "\r\n", with: "\n"))
    }
}

enum MailSinkError: Error, CustomStringConvertible {
    case notRunning
    case noMail(String)
    case noLink(String)

    var description: String {
        switch self {
        case .notRunning: "The SMTP sinks are not running: run the tests with scripts/test (it starts them, see scripts/lib/smtp.sh)."
        case .noMail(let recipient): "No mail reached \(recipient) within 10 s."
        case .noLink(let text): "The mail has no reset link:\n\(text)"
        }
    }
}
