/// How `kinship serve` reaches the SMTP server that sends its mail (password reset links).
public struct SMTPSettings: Sendable, Equatable {
    /// How the connection is protected.
    public enum Security: String, Sendable, CaseIterable {
        /// Plain SMTP: only for a relay on the same host or network (the password, if any, would
        /// travel in the clear, so it is refused unless the host is a loopback address).
        case none
        /// Plain SMTP upgraded with `STARTTLS` before anything else is sent (port 587).
        case startTLS = "starttls"
        /// TLS from the first byte (port 465).
        case tls
    }

    public var host: String
    public var port: Int
    public var security: Security
    /// The account to log in with (`AUTH PLAIN`), if the server asks for one.
    public var username: String?
    public var password: String?
    /// The address mail comes from (`MAIL FROM` and the `From:` header).
    public var sender: String
    /// A PEM file of the certificates to trust instead of the system's (a private CA).
    public var trustedCertificatesFile: String?

    public init(
        host: String,
        port: Int,
        security: Security,
        username: String? = nil,
        password: String? = nil,
        sender: String,
        trustedCertificatesFile: String? = nil
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.sender = sender
        self.trustedCertificatesFile = trustedCertificatesFile
    }

    /// What is wrong with these settings, said so an operator can fix it, or `nil`.
    public var problem: String? {
        if !(1...65_535).contains(port) { return "The SMTP port \(port) is not a port number (1 to 65535)." }
        if !MailAddress.isPlausible(sender) { return "The mail sender \"\(sender)\" is not an email address." }
        if username != nil, password == nil { return "An SMTP username needs a password (--smtp-password-file or KINSHIP_SMTP_PASSWORD)." }
        if security == .none, username != nil, !["127.0.0.1", "::1", "localhost"].contains(host) {
            return "Refusing to send the SMTP password in the clear to \(host): use --smtp-security starttls or tls."
        }
        return nil
    }
}
