import Foundation

/// The Prosody configuration that makes a Debian Prosody 0.12 the chat server of this Kinship:
/// chat addresses `USERID@DOMAIN`, logins with Kinship access tokens through `mod_auth_kinship`
/// (shipped in the package's resources), TLS required.
public struct ChatServerConfiguration: Sendable {
    /// The chat domain: addresses are `USERID@domain`.
    public var domain: String
    /// Where Prosody reaches Kinship for login checks.
    public var kinshipURL: String
    /// The port clients connect to (5222 by default).
    public var clientPort: Int
    /// The address Prosody listens on.
    public var listenAddress: String
    /// The TLS certificate and key for `domain`.
    public var certificate: String
    public var key: String
    /// For a Prosody that Kinship runs itself: the folder for its data, pid file and log (and
    /// permission to run as root, which Prosody otherwise refuses). `nil`: the operator's choices.
    public var runtimeFolder: String?

    public init(domain: String, kinshipURL: String, clientPort: Int, listenAddress: String, certificate: String, key: String) {
        self.domain = domain
        self.kinshipURL = kinshipURL
        self.clientPort = clientPort
        self.listenAddress = listenAddress
        self.certificate = certificate
        self.key = key
    }

    /// The lines that keep a Prosody Kinship runs in its own folder.
    private var runtimeLines: String {
        guard let runtimeFolder else { return "" }
        let runAsRoot = getuid() == 0 ? "run_as_root = true\n" : ""
        return """
            data_path = \(quoted(runtimeFolder + "/data"))
            pidfile = \(quoted(runtimeFolder + "/prosody.pid"))
            log = { info = \(quoted(runtimeFolder + "/prosody.log")) }
            \(runAsRoot)
            """
    }

    /// The secret Prosody presents to `/chat/auth`, derived from the server secret: every process
    /// of the deployment accepts it.
    public static func sharedSecret(from secret: ServerSecret) -> String {
        ChatAuthController.sharedSecret(from: secret)
    }

    /// The Prosody modules shipped in the package's resources, and the library they share.
    static let modules = ["kinship.lib.lua", "mod_auth_kinship.lua", "mod_roster_kinship.lua", "mod_vcard_kinship.lua"]

    /// Writes `prosody.cfg.lua` and the Kinship modules (``modules``) into `folder` (made if
    /// missing, the configuration readable by its owner only: it holds the shared secret).
    /// - Returns: the configuration file's path.
    public func write(to folder: String, secret: ServerSecret) throws -> String {
        guard let resources = Bundle.module.url(forResource: "Resources", withExtension: nil)?.appendingPathComponent("prosody")
        else { throw ChatConfigurationError.missingModule }
        let modules = URL(fileURLWithPath: folder).appendingPathComponent("modules")
        try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
        if let runtimeFolder {
            try FileManager.default.createDirectory(
                atPath: runtimeFolder + "/data",
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        for module in Self.modules {
            let copy = modules.appendingPathComponent(module)
            try? FileManager.default.removeItem(at: copy)
            guard FileManager.default.fileExists(atPath: resources.appendingPathComponent(module).path) else {
                throw ChatConfigurationError.missingModule
            }
            try FileManager.default.copyItem(at: resources.appendingPathComponent(module), to: copy)
        }
        let path = URL(fileURLWithPath: folder).appendingPathComponent("prosody.cfg.lua").path
        guard
            FileManager.default.createFile(
                atPath: path,
                contents: Data(lua(moduleFolder: modules.path, secret: Self.sharedSecret(from: secret)).utf8),
                attributes: [.posixPermissions: 0o600]
            )
        else { throw ChatConfigurationError.cannotWrite(path) }
        return path
    }

    private func lua(moduleFolder: String, secret: String) -> String {
        """
        -- Prosody for Kinship Chat, written by `kinship chat config`. Chat addresses are USERID@\(domain);
        -- a login's password is a Kinship access token granted xmpp_login, checked by Kinship; a
        -- person's roster is their Kinship friend list (mod_roster_kinship), so Prosody keeps none, and
        -- their vCard is their Kinship profile (mod_vcard_kinship). Messages to someone offline wait
        -- for them (mod_offline); conversations are archived for history (mod_mam, XEP-0313).
        \(runtimeLines)plugin_paths = { \(quoted(moduleFolder)) }
        interfaces = { \(quoted(listenAddress)) }
        c2s_ports = { \(clientPort) }
        c2s_direct_tls_ports = {}
        s2s_ports = {}
        c2s_require_encryption = true
        allow_unencrypted_plain_auth = false
        allow_registration = false
        modules_enabled = {
            "roster", "roster_kinship", "vcard_kinship", "saslauth", "tls", "disco", "ping", "posix",
            "offline", "mam", "carbons",
        }
        modules_disabled = { "s2s" }
        storage = { roster = "memory" }
        certificates = \(quoted(URL(fileURLWithPath: certificate).deletingLastPathComponent().path))

        VirtualHost \(quoted(domain))
            authentication = "kinship"
            kinship_url = \(quoted(kinshipURL))
            kinship_secret = \(quoted(secret))
            ssl = { certificate = \(quoted(certificate)), key = \(quoted(key)) }

        """
    }

    /// A Lua string literal.
    private func quoted(_ text: String) -> String {
        "\""
            + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}

/// Why the chat server's configuration could not be written.
public enum ChatConfigurationError: Error, CustomStringConvertible {
    case missingModule
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .missingModule:
            "The Kinship Prosody modules (\(ChatServerConfiguration.modules.joined(separator: ", "))) were not found next to the executable; reinstall Kinship with its resources."
        case .cannotWrite(let path): "Cannot write \(path): check that the folder is writable."
        }
    }
}
