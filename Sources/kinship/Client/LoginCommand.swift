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

            On a machine without a browser (a server over SSH), --device prints a code and an address \
            to type it at from your phone or computer, draws the address as a QR code when the terminal \
            can show one (with qrencode installed), and waits for your answer there.
            """
    )

    @OptionGroup var account: AccountOptions
    @Option(help: ArgumentHelp("The Kinship server, e.g. http://127.0.0.1:8080.", valueName: "url")) var server: String
    @Option(name: .customLong("app-id"), help: ArgumentHelp("The app's client id (`kinship apps list`).", valueName: "id"))
    var appID: String
    @Option(help: ArgumentHelp("Permissions to ask for, comma-separated (public_profile is always included).", valueName: "list"))
    var permissions: String = ""
    @Flag(name: .customLong("no-browser"), help: "Only print the dialog URL; do not open a browser.") var noBrowser = false
    @Flag(help: "Log in from another device: print a code to type at the server's /device page.") var device = false
    @Option(
        help: ArgumentHelp(
            "With --device, draw the page's address as a QR code: auto (on a UTF-8 terminal), always or never.",
            valueName: "when"
        )
    )
    var qr: TerminalQRCode.Mode = .auto
    @Option(help: ArgumentHelp("Give up after this many seconds without an answer from the browser.", valueName: "seconds"))
    var timeout: Int = 600

    func validate() throws {
        guard timeout > 0 else { throw ValidationError("--timeout must be a positive number of seconds.") }
        if device, noBrowser { throw ValidationError("--device opens no browser here; leave out --no-browser.") }
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
            Terminal.note(
                "Already logged in; asking for \(Permission.scope(of: asked)) as well (logged in with \(Permission.scope(of: current.permissions.sorted())))."
            )
        }
        let manager = LoginManager(
            configuration: configuration,
            session: session,
            presenter: Terminal.loginPresenter(openBrowser: !noBrowser),
            timeout: .seconds(timeout)
        )
        let result = try await device ? manager.logInWithDevice(permissions: asked, show: showDeviceCode) : manager.logIn(permissions: asked)
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

    /// Tells the person where to answer a device login, with the page as a QR code when it can.
    private func showDeviceCode(_ login: DeviceAuthorization) async {
        Terminal.note("To log in, open \(login.verificationURI.absoluteString) on your phone or computer and type the code\n")
        Terminal.note("    \(login.userCode)\n")
        switch TerminalQRCode.draw((login.verificationURIComplete ?? login.verificationURI).absoluteString, mode: qr) {
        case .success(let drawn):
            Terminal.note("or scan this code, which opens the page with the code filled in:\n\n\(drawn)")
        case .failure(.noQRencode) where qr == .always:
            Terminal.warn("No QR code: install qrencode to have one drawn.")
        case .failure(.failed(let reason)):
            Terminal.warn("No QR code: \(reason).")
        case .failure:
            break
        }
        let minutes = max(1, login.expiresIn / 60)
        Terminal.note("Waiting for your answer (the code works for \(minutes) minute\(minutes == 1 ? "" : "s"); Ctrl-C gives up)…")
    }
}

extension TerminalQRCode.Mode: ExpressibleByArgument {}
