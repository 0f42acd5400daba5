import ArgumentParser
import Foundation
import KinshipContacts
import KinshipCore
import KinshipKit
import KinshipXMPP

/// How the `kinship chat` commands reach Kinship Chat: as the person logged in from this terminal
/// (`kinship login --permissions xmpp_login`), with their Kinship access token as the chat login.
struct ChatLoginOptions: ParsableArguments {
    @OptionGroup var account: AccountOptions
    @Option(
        help: ArgumentHelp(
            "The chat domain: addresses are USERID@DOMAIN (default: what the Kinship server says, else its host name).",
            valueName: "domain"
        )
    )
    var domain: String?
    @OptionGroup var server: ChatServerOptions

    /// Logs in to chat with the account's token (refreshed when it has expired), runs `body`, and
    /// logs out. With `presence`, the person shows as online meanwhile, and the server delivers
    /// what waited for them: friend requests and messages.
    ///
    /// With `reconnecting`, a lost connection is made again (with a fresh token when the old one
    /// expired), and the friend list synced again.
    func withClient<Result>(
        presence: Bool,
        reconnecting: Bool = false,
        _ body: (XMPPClient) async throws -> Result
    ) async throws
        -> Result
    {
        let kinship = try await account.openClient()
        let token: AccessToken
        do {
            token = try await kinship.manager.accessTokenForCall()
        } catch {
            throw CLIError.graph(error, command: "kinship chat")
        }
        guard token.permissions.contains(.xmppLogin) else { throw CLIError.noChatPermission(account: account.account) }
        // Where the chat server is: the options given, else what the Kinship server says (GET
        // /chat/server), else its host name.
        let discovered = domain == nil ? try await ChatServerDiscovery.ask(kinship.record.server) : nil
        let chatDomain = domain ?? discovered?.domain ?? URL(string: kinship.record.server)?.host ?? "localhost"
        guard let jid = JID("\(token.userID)@\(chatDomain)") else { throw ValidationError("--domain \(chatDomain) is not a chat domain.") }
        var trust = server.trust
        if server.trustCert == nil, let discovered, ChatServerDiscovery.isLoopback(kinship.record.server),
            let path = try discovered.savedCertificate(in: AccountOptions.configFolder)
        {
            trust = .certificate(path: path)
        }
        let manager = kinship.manager
        let configuration = XMPPConfiguration(
            jid: jid,
            tokenProvider: { try await manager.accessTokenForCall().tokenString },
            host: server.host ?? discovered?.host ?? chatDomain,
            port: server.port ?? discovered?.port ?? 5222,
            trust: trust,
            timeout: .seconds(server.timeout)
        )
        var options = XMPPClient.Options()
        options.initialPresence = presence ? Presence() : nil
        options.reconnect = reconnecting ? ReconnectPolicy(initialDelay: .milliseconds(500), maximumDelay: .seconds(30)) : nil
        return try await XMPPClient(configuration: configuration, options: options).session(body)
    }

    /// The one friend (or person asking to be one) `typed` names on `client`'s list.
    static func friend(_ typed: String, of client: XMPPClient) async throws -> JID {
        try friend(typed, in: await client.contactList(), domain: await client.configuration.jid.domain)
    }

    /// The one friend (or person asking to be one) `typed` names: their user id, their chat
    /// address, or a search of names (pinyin and initials too) that matches one person. A user
    /// id or address of someone not on the list names them still (to be told they did not ask).
    static func friend(_ typed: String, in list: ContactList, domain: String) throws -> JID {
        let contacts = list.contacts
        if let exact = contacts.first(where: { $0.id == typed || JID($0.id)?.local == typed }), let jid = JID(exact.id) { return jid }
        if typed.contains("@"), let jid = JID(typed) { return jid.bare }
        if !typed.isEmpty, typed.allSatisfy(\.isNumber), let jid = JID("\(typed)@\(domain)") { return jid }
        var search = list
        search.searchText = typed
        let found = search.sections.flatMap(\.contacts)
        guard found.count == 1, let jid = JID(found[0].id) else {
            throw CLIError.noSuchFriend(typed, candidates: found.prefix(5).map { list.displayName(of: $0) })
        }
        return jid
    }
}
