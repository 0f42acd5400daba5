import ArgumentParser
import Foundation
import KinshipServer

/// Where `kinship serve` sends mail from (password reset links). Without `--smtp-host` the
/// server sends none, and "Forgot your password?" says to ask the operator.
struct MailOptions: ParsableArguments {
    @Option(name: .customLong("smtp-host"), help: "The SMTP server that sends password reset links; no mail is sent without it.")
    var host: String?
    @Option(name: .customLong("smtp-port"), help: "The SMTP server's port (587 for starttls, 465 for tls, 25 for none).")
    var port: Int?
    @Option(name: .customLong("smtp-security"), help: "starttls (default), tls, or none (only for a relay on this host).")
    var security: SMTPSettings.Security = .startTLS
    @Option(name: .customLong("smtp-username"), help: "The SMTP account, when the server asks for one.")
    var username: String?
    @Option(
        name: .customLong("smtp-password-file"),
        help: ArgumentHelp(
            "A file holding the SMTP password.", discussion: "Or set KINSHIP_SMTP_PASSWORD; a password is never taken on the command line.",
            valueName: "path"))
    var passwordFile: String?
    @Option(name: .customLong("mail-from"), help: "The address mail comes from, e.g. no-reply@login.example.com.")
    var sender: String?
    @Option(name: .customLong("smtp-ca-file"), help: "A PEM file of certificates to trust for the SMTP server instead of the system's.")
    var certificatesFile: String?

    /// The settings these options describe, or `nil` when no SMTP host is given.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SMTPSettings? {
        guard let host else {
            guard username == nil, passwordFile == nil, sender == nil else {
                throw ValidationError("--smtp-username, --smtp-password-file and --mail-from need --smtp-host.")
            }
            return nil
        }
        guard let sender else { throw ValidationError("--smtp-host needs --mail-from: the address mail comes from.") }
        var password = environment["KINSHIP_SMTP_PASSWORD"]
        if let passwordFile {
            do {
                password = try String(contentsOfFile: passwordFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("Cannot read the SMTP password from \(passwordFile): check the path and that this user may read it.")
            }
        }
        let defaultPort = switch security {
        case .startTLS: 587
        case .tls: 465
        case .none: 25
        }
        let settings = SMTPSettings(
            host: host, port: port ?? defaultPort, security: security, username: username, password: username == nil ? nil : password,
            sender: sender, trustedCertificatesFile: certificatesFile)
        if let problem = settings.problem { throw ValidationError(problem) }
        return settings
    }
}

extension SMTPSettings.Security: ExpressibleByArgument {}
