import ArgumentParser

@main
struct Kinship: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kinship",
        abstract: "A self-hostable social login and social graph platform.",
        discussion: """
            Run the platform with `kinship serve` (an SQLite file in the current folder by default, or \
            --database postgres://…). Manage accounts, apps and friendships with the admin commands, which \
            work on the database directly and print one JSON object each.

            Start with `kinship serve --demo` to get a demo app and demo people to log in as, then try the \
            client commands, which act as the person logged in from this terminal: `kinship login`, `kinship me`, \
            `kinship friends`, `kinship permissions`, `kinship logout`. `kinship roster` shows a chat friend \
            list on an XMPP server.
            """,
        subcommands: [
            ServeCommand.self, SecretCommand.self, LoginCommand.self, MeCommand.self, FriendsCommand.self, PermissionsCommand.self,
            LogoutCommand.self,
            RosterCommand.self, ChatCommand.self, UsersCommand.self, AppsCommand.self, KeysCommand.self, CallbacksCommand.self, BackupCommand.self,
            PopulateCommand.self,
        ]
    )
}
