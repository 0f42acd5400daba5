import ArgumentParser
import Foundation
import KinshipCore
import KinshipKit

struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to an app on a Kinship server, in your browser.",
        discussion: """
            Opens the login dialog in your browser ($BROWSER, then xdg-open or open) and waits for it to \
            come back to a listener on 127.0.0.1. The dialog URL is printed too, for a machine with no \
            browser. The token is kept in $XDG_CONFIG_HOME/kinship/tokens (readable only by you).

            Read and publish permissions are asked in separate logins: log in with read permissions, then \
            run `kinship login --permissions publish_actions` while logged in to add publishing.
            """)

    @OptionGroup var account: AccountOptions
    @Option(help: ArgumentHelp("The Kinship server, e.g. http://127.0.0.1:8080.", valueName: "url")) var server: String
    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app's client id (`kinship apps list`).", valueName: "id"))
    var appID: String
    @Option(help: ArgumentHelp("Permissions to ask for, comma-separated (public_profile is always included).", valueName: "list"))
    var permissions: String = ""
    @Flag(name: .customLong("no-browser"), help: "Only print the dialog URL; do not open a browser.") var noBrowser = false
    @Option(help: ArgumentHelp("Give up after this many seconds without an answer from the browser.", valueName: "seconds"))
    var timeout: Int = 600

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
    }

    func run() async throws {
        let record = AccountRecord(server: server, appID: appID)
        let configuration = try record.configuration()
        let asked = Permission.list(fromScope: permissions)
        let session = try await Session(appID: appID, cache: account.tokenCache(), cacheKey: account.account)
        if await session.state == .createdTokenLoaded, let current = await session.accessToken,
            (try? account.loadRecord())?.server == server, !asked.isEmpty
        {
            try await session.openWithCachedToken()
            Terminal.note("Already logged in; asking for \(Permission.scope(of: asked)) as well (logged in with \(Permission.scope(of: current.permissions.sorted()))).")
        }
        let manager = LoginManager(
            configuration: configuration, session: session, presenter: Terminal.loginPresenter(openBrowser: !noBrowser),
            timeout: .seconds(timeout))
        let result = try await manager.logIn(permissions: asked)
        guard case .success(let login) = result else {
            Terminal.warn("The login was cancelled; nothing changed.")
            throw ExitCode.failure
        }
        try account.saveRecord(record)
        let me = try? await GraphClient(configuration: configuration, tokens: manager).me()
        print("Logged in as \(me?.name ?? login.token.userID) (id \(login.token.userID)).")
        print("Granted: \(Permission.scope(of: login.token.permissions.sorted()))")
        if !login.declinedPermissions.isEmpty {
            print("Declined: \(Permission.scope(of: login.declinedPermissions.sorted())) — ask again with `kinship login --permissions …`.")
        }
    }
}
