import ArgumentParser

/// `kinship serve`'s Kinship Chat settings. Each is also `KINSHIP_…` in the environment and a key
/// of the config file.
struct ChatOptions: ParsableArguments {
    @Flag(
        help: ArgumentHelp(
            "Also run Kinship Chat: a Prosody of its own on loopback (needs Debian's prosody), started, restarted and stopped with the server.",
            discussion: "Its configuration, self-signed certificate, data and log go in --chat-folder."
        )
    )
    var chat = false
    @Option(
        name: .customLong("chat-domain"),
        help: "The chat domain: addresses are USERID@DOMAIN (default: localhost). Without --chat: where your own Prosody is, for GET /chat/server."
    )
    var chatDomain: String?
    @Option(name: .customLong("chat-port"), help: "The port chat clients connect to (default: 5222).") var chatPort: Int?
    @Option(name: .customLong("chat-host"), help: "The host chat clients connect to, without --chat (default: the chat domain).")
    var chatHost: String?
    @Option(name: .customLong("chat-folder"), help: "Where --chat keeps Prosody's files (default: kinship-chat).") var chatFolder: String?
}
