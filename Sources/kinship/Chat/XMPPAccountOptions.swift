import ArgumentParser
import Foundation
import KinshipXMPP

/// The chat account the roster commands log in as.
struct XMPPAccountOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Your chat address, e.g. ada@example.com.", valueName: "jid")) var jid: String
    @Option(name: .customLong("password-file"),
        help: ArgumentHelp("A file holding the password (its first line), so it stays out of shell history.", valueName: "file"))
    var passwordFile: String
    @Option(help: ArgumentHelp("The server's host; the JID's domain by default.", valueName: "host")) var host: String?
    @Option(help: "The server's port.") var port: Int = 5222
    @Option(name: .customLong("trust-cert"),
        help: ArgumentHelp("Trust only this PEM certificate (a local test server's self-signed one).", valueName: "file"))
    var trustCert: String?
    @Option(help: ArgumentHelp("Seconds to wait for each step before giving up.", valueName: "seconds")) var timeout: Int = 15

    func validate() throws {
        guard JID(jid)?.local != nil else { throw ValidationError("--jid must be an address like ada@example.com.") }
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535.") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
    }

    func configuration() throws -> XMPPConfiguration {
        guard let data = FileManager.default.contents(atPath: passwordFile) else {
            throw ValidationError("The password file \(passwordFile) cannot be read.")
        }
        let password = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        guard !password.isEmpty else { throw ValidationError("The password file \(passwordFile) is empty.") }
        return XMPPConfiguration(
            jid: JID(jid)!, password: password, host: host, port: port, trust: trustCert.map { .certificate(path: $0) } ?? .system,
            timeout: .seconds(timeout))
    }

    /// Connects, runs `body`, and disconnects.
    func withClient<Result>(sendPresence: Bool, _ body: (XMPPClient) async throws -> Result) async throws -> Result {
        var options = XMPPClient.Options()
        options.initialPresence = sendPresence ? Presence() : nil
        let client = XMPPClient(configuration: try configuration(), options: options)
        try await client.connect()
        do {
            let result = try await body(client)
            await client.disconnect()
            return result
        } catch {
            await client.disconnect()
            throw error
        }
    }

    func parse(_ text: String) throws -> JID {
        guard let contact = JID(text), contact.local != nil else { throw ValidationError("\(text) is not a chat address.") }
        return contact
    }
}
