/// Why a message was not sent, said for the operator reading the log.
enum SMTPError: Error, CustomStringConvertible {
    case connection(String)
    case timedOut(Duration)
    case closed(step: String)
    case malformedReply(step: String, String)
    case refused(step: String, code: Int, String)
    case noSTARTTLS(String)
    case refusedAddress(String)

    var description: String {
        switch self {
        case .connection(let detail):
            "Could not talk to the SMTP server (\(detail)). Check --smtp-host, --smtp-port and --smtp-security."
        case .timedOut(let limit):
            "The SMTP server did not finish within \(limit); the message was not sent."
        case .closed(let step):
            "The SMTP server closed the connection during \(step)."
        case .malformedReply(let step, let reply):
            "The SMTP server's reply to \(step) is not SMTP: \(reply)"
        case .refused(let step, let code, let text):
            "The SMTP server refused \(step) with \(code) \(text)"
                + (code == 535 ? " — check --smtp-username and the SMTP password." : "")
        case .noSTARTTLS(let host):
            "\(host) does not offer STARTTLS; use --smtp-security tls (port 465) or a server that does."
        case .refusedAddress(let address):
            "\"\(address)\" cannot be written into an SMTP envelope."
        }
    }
}
