import ArgumentParser
import Foundation
import KinshipCore
import KinshipKit
import KinshipLoopback

/// `--account`, shared by the commands that act as the person logged in from this terminal.
///
/// Each account keeps its token in `$XDG_CONFIG_HOME/kinship/tokens/ACCOUNT.json` (mode 0600)
/// and the server and app it logged in to in `$XDG_CONFIG_HOME/kinship/accounts/ACCOUNT.json`.
struct AccountOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Which saved login to use, so several people can be logged in on one machine.", valueName: "name"))
    var account: String = "default"

    /// `$XDG_CONFIG_HOME/kinship` (or `~/.config/kinship`).
    static var configFolder: URL { FileTokenCache.defaultFolder().deletingLastPathComponent() }

    var recordFile: URL { Self.configFolder.appendingPathComponent("accounts/\(account).json") }

    func tokenCache() -> FileTokenCache {
        FileTokenCache(folder: FileTokenCache.defaultFolder()) { problem in Terminal.warn(problem.description) }
    }

    func validate() throws {
        guard !account.isEmpty, account.count <= 64, account.first != ".",
            account.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) })
        else { throw ValidationError("--account takes letters, digits, dots, dashes and underscores.") }
    }

    /// The saved server and app of this account.
    func loadRecord() throws -> AccountRecord {
        guard let data = FileManager.default.contents(atPath: recordFile.path) else {
            throw CLIError.notLoggedIn(account: account)
        }
        do {
            return try JSONDecoder().decode(AccountRecord.self, from: data)
        } catch {
            throw CLIError.unreadableAccount(path: recordFile.path)
        }
    }

    func saveRecord(_ record: AccountRecord) throws {
        let folder = recordFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        try encoder.encode(record).write(to: recordFile, options: .atomic)
    }

    /// The logged-in person's client: a session opened from the cached token, a login manager
    /// for asking more, a Graph client and its recovery helper.
    func openClient() async throws -> AccountClient {
        let record = try loadRecord()
        let configuration = try record.configuration()
        let session = try await Session(appID: record.appID, cache: tokenCache(), cacheKey: account)
        guard await session.state == .createdTokenLoaded else { throw CLIError.notLoggedIn(account: account) }
        try await session.openWithCachedToken()
        let manager = LoginManager(configuration: configuration, session: session, presenter: Terminal.loginPresenter())
        let graph = GraphClient(configuration: configuration, tokens: manager)
        return AccountClient(record: record, manager: manager, graph: graph)
    }
}

/// Where an account logged in: the server and the app.
struct AccountRecord: Codable {
    let server: String
    let appID: String

    enum CodingKeys: String, CodingKey {
        case server
        case appID = "app_id"
    }

    func configuration() throws -> KinshipConfiguration {
        guard let url = URL(string: server), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ValidationError("\(server) is not an http(s) URL of a Kinship server.")
        }
        return KinshipConfiguration(serverURL: url, appID: appID)
    }
}

/// A logged-in account, ready to call the Graph API.
struct AccountClient {
    let record: AccountRecord
    let manager: LoginManager
    let graph: GraphClient

    /// Runs a Graph call: transient failures are retried; a missing permission is asked for
    /// (in the browser) only when `ask` is set, and otherwise explained with the `--ask` hint.
    func call<Result: Sendable>(
        ask: Bool,
        command: String,
        _ body: @Sendable (GraphClient) async throws(GraphError) -> Result
    )
        async throws -> Result
    {
        var recovery = GraphRecovery(graph: graph, loginManager: manager)
        recovery.asksForMissingPermissions = ask
        do {
            return try await recovery.perform(body)
        } catch let error as GraphError {
            throw CLIError.graph(error, command: command)
        }
    }
}
