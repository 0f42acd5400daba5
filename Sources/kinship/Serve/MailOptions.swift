import ArgumentParser
import KinshipServer

/// Where `kinship serve` sends mail from (password reset links). Without an SMTP host the server
/// sends none, and "Forgot your password?" says to ask the operator. Each is also `KINSHIP_…` in
/// the environment and a key of the config file; the password is `KINSHIP_SMTP_PASSWORD` or a file,
/// never an option.
struct MailOptions: ParsableArguments {
    @Option(name: .customLong("smtp-host"), help: "The SMTP server that sends password reset links; no mail is sent without it.")
    var host: String?
    @Option(name: .customLong("smtp-port"), help: "The SMTP server's port (default: 587 for starttls, 465 for tls, 25 for none).")
    var port: Int?
    @Option(name: .customLong("smtp-security"), help: "starttls, tls, or none (only for a relay on this host) (default: starttls).")
    var security: SMTPSettings.Security?
    @Option(name: .customLong("smtp-username"), help: "The SMTP account, when the server asks for one.")
    var username: String?
    @Option(
        name: .customLong("smtp-password-file"),
        help: ArgumentHelp("A file holding the SMTP password.", discussion: "Or set KINSHIP_SMTP_PASSWORD.", valueName: "path")
    )
    var passwordFile: String?
    @Option(name: .customLong("mail-from"), help: "The address mail comes from, e.g. no-reply@login.example.com.")
    var sender: String?
    @Option(name: .customLong("smtp-ca-file"), help: "A PEM file of certificates to trust for the SMTP server instead of the system's.")
    var certificatesFile: String?
}

extension SMTPSettings.Security: ExpressibleByArgument {}
