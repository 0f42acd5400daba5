import ArgumentParser
import Foundation
import KinshipServer
import Logging

/// `kinship chat`: Kinship Chat on a real Prosody.
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Kinship Chat: chat with your Kinship friends, and set up the Prosody server it runs on.",
        discussion: """
            The chat commands log in to chat with the login of `kinship login --permissions xmpp_login`: the chat \
            friend list is your Kinship friend list. --domain, --host and --port say where the chat server is.
            """,
        subcommands: [Friends.self, Send.self, Listen.self, History.self, Accept.self, Decline.self, Config.self]
    )

    struct Config: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a Prosody configuration (and its Kinship login module) for this Kinship; prints {\"config\": PATH}.",
            discussion: """
                Run it with Debian's Prosody 0.12: `prosody --config DIR/prosody.cfg.lua`. Chat addresses are \
                USERID@DOMAIN; a login's password is a Kinship access token granted xmpp_login (as Facebook \
                Chat's was), which Prosody checks with Kinship at /chat/auth, authenticated by a secret derived \
                from the server secret: use the same --database (and --secret-file) as kinship serve.
                """
        )

        @OptionGroup var storage: DatabaseOptions
        @Option(name: .customLong("secret-file"), help: ArgumentHelp("The server secret file, as kinship serve uses it.", valueName: "path"))
        var secretFile: String?
        @Option(help: "The folder to write prosody.cfg.lua and modules/ into.") var out: String
        @Option(help: "The chat domain: addresses are USERID@DOMAIN.") var domain: String
        @Option(name: .customLong("kinship-url"), help: "Where Prosody reaches Kinship (default: http://127.0.0.1:8080).")
        var kinshipURL = "http://127.0.0.1:8080"
        @Option(name: .customLong("port"), help: "The port chat clients connect to (default: 5222).") var port = 5222
        @Option(name: .customLong("listen"), help: "The address Prosody listens on (default: 127.0.0.1).") var listen = "127.0.0.1"
        @Option(help: "The TLS certificate (PEM) for DOMAIN.") var certificate: String
        @Option(help: "The TLS key (PEM) for DOMAIN.") var key: String

        func run() async throws {
            let location = try storage.location()
            let secret = try ServerSecretOptions.load(explicitPath: secretFile, database: location, logger: .init(label: "kinship.chat"))
            let path = try ChatServerConfiguration(
                domain: domain,
                kinshipURL: kinshipURL,
                clientPort: port,
                listenAddress: listen,
                certificate: certificate,
                key: key
            ).write(to: out, secret: secret)
            try JSONOutput.print(["config": path])
        }
    }
}
