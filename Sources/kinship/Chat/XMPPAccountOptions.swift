import ArgumentParser
import Foundation
import KinshipXMPP

/// The chat account the roster commands log in as.
struct XMPPAccountOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Your chat address, e.g. ada@example.com.", valueName: "jid")) var jid: String
    @Option(
        name: .customLong("password-file"),
        help: ArgumentHelp("A file holding the password (its first line), so it stays out of shell history.", valueName: "file")
    )
    var passwordFile: String
    @OptionGroup var server: ChatServerOptions

    func validate() throws {
        guard JID(jid)?.local != nil else { throw ValidationError("--jid must be an address like ada@example.com.") }
    }

    func configuration() throws -> XMPPConfiguration {
        guard let data = FileManager.default.contents(atPath: passwordFile) else {
            throw ValidationError("The password file \(passwordFile) cannot be read.")
        }
        let password = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !password.isEmpty else { throw ValidationError("The password file \(passwordFile) is empty.") }
        return XMPPConfiguration(
            jid: JID(jid)!,
            password: password,
            host: server.host,
            port: server.port ?? 5222,
            trust: server.trust,
            timeout: .seconds(server.timeout)
        )
    }

    /// Connects, runs `body`, and disconnects.
    func withClient<Result>(sendPresence: Bool, _ body: (XMPPClient) async throws -> Result) async throws -> Result {
        var options = XMPPClient.Options()
        options.initialPresence = sendPresence ? Presence() : nil
        return try await XMPPClient(configuration: try configuration(), options: options).session(body)
    }

    func parse(_ text: String) throws -> JID {
        guard let contact = JID(text), contact.local != nil else { throw ValidationError("\(text) is not a chat address.") }
        return contact
    }
}
