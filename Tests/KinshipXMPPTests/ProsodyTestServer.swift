import Foundation
import KinshipXMPP
import Testing

/// A Prosody on 127.0.0.1 for the tests (see `scripts/lib/prosody.sh`): the shared one
/// `scripts/test` starts, found through `KINSHIP_TEST_XMPP_*`, or one of a test's own
/// (``OwnProsody``). Suites that need it carry ``Trait/needsProsody``: without the server they
/// fail, unless `KINSHIP_TEST_SKIP_PROSODY=1` asks to leave them out of a quick local run.
struct ProsodyTestServer: Sendable {
    let port: Int
    let certificate: String
    let config: String

    static let environment = ProcessInfo.processInfo.environment
    static var isConfigured: Bool { environment["KINSHIP_TEST_XMPP_PORT"] != nil }
    static var isWanted: Bool { environment["KINSHIP_TEST_SKIP_PROSODY"] != "1" }
    static let shared = ProsodyTestServer(
        port: Int(environment["KINSHIP_TEST_XMPP_PORT"] ?? "") ?? 5222,
        certificate: environment["KINSHIP_TEST_XMPP_CERT"] ?? "",
        config: environment["KINSHIP_TEST_PROSODY_CONFIG"] ?? ""
    )
    static let domain = "kinship.test"
    static let password = "correct horse battery"
    static var port: Int { shared.port }
    static var certificate: String { shared.certificate }

    static func register(_ prefix: String) async throws -> JID { try await shared.register(prefix) }

    static func configuration(_ jid: JID, password: String = password, timeout: Duration = .seconds(10)) -> XMPPConfiguration {
        shared.configuration(jid, password: password, timeout: timeout)
    }

    static func seedRoster(of account: JID, items: [SeededItem], pendingIn: [JID] = []) throws {
        try shared.seedRoster(of: account, items: items, pendingIn: pendingIn)
    }

    /// Registers a new account with a unique name starting with `prefix`; returns its JID.
    func register(_ prefix: String) async throws -> JID {
        let domain = Self.domain
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        let prosodyctl = try ChildProcess.spawn(["prosodyctl", "--config", config, "register", name, domain, Self.password])
        guard await prosodyctl.exitCode() == 0, let jid = JID("\(name)@\(domain)") else {
            throw ProsodyTestError.registrationFailed(name)
        }
        return jid
    }

    /// How a test client reaches this server as `jid`.
    func configuration(_ jid: JID, password: String = ProsodyTestServer.password, timeout: Duration = .seconds(10)) -> XMPPConfiguration {
        XMPPConfiguration(
            jid: jid,
            password: password,
            host: "127.0.0.1",
            port: port,
            trust: .certificate(path: certificate),
            timeout: timeout
        )
    }
}

enum ProsodyTestError: Error, CustomStringConvertible {
    case registrationFailed(String)
    case instanceFailed(String)
    case notConfigured(String)

    var description: String {
        switch self {
        case .registrationFailed(let name): "prosodyctl could not register \(name)"
        case .instanceFailed(let why): "a test Prosody could not be started: \(why)"
        case .notConfigured(let what): what
        }
    }
}

/// What a suite needs to run against a real server, checked before each of its tests: a missing
/// server fails the test instead of skipping it.
struct ServerRequirement: SuiteTrait, TestTrait {
    let isMet: @Sendable () -> Bool
    let missing: String

    var isRecursive: Bool { true }

    func prepare(for test: Test) async throws {
        guard isMet() else { throw ProsodyTestError.notConfigured(missing) }
    }
}

extension Trait where Self == ServerRequirement {
    /// The shared Prosody that `scripts/test` starts.
    static var needsProsody: Self {
        ServerRequirement(
            isMet: { ProsodyTestServer.isConfigured },
            missing: "KINSHIP_TEST_XMPP_PORT is not set: run scripts/test (it starts Prosody), or set KINSHIP_TEST_SKIP_PROSODY=1."
        )
    }

    /// The dnsmasq that `scripts/test` starts to serve SRV records.
    static var needsTestDNS: Self {
        ServerRequirement(
            isMet: { ProsodyTestServer.environment["KINSHIP_TEST_DNS_PORT"] != nil },
            missing: "KINSHIP_TEST_DNS_PORT is not set: run scripts/test (it starts dnsmasq), or set KINSHIP_TEST_SKIP_PROSODY=1."
        )
    }
}

/// A roster entry written into Prosody's storage before the account first logs in.
struct SeededItem {
    let jid: JID
    var name: String? = nil
    var subscription = "none"
    var ask = false
    var groups: [String] = []
}

extension ProsodyTestServer {
    /// Writes `account`'s roster straight into Prosody's data folder (its Lua storage format),
    /// with `pendingIn` as subscription requests waiting for the user.
    func seedRoster(of account: JID, items: [SeededItem], pendingIn: [JID] = []) throws {
        let folder = URL(fileURLWithPath: config).deletingLastPathComponent().appendingPathComponent("data/\(Self.encode(Self.domain))/roster")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lua = "return {\n[false] = { [\"version\"] = 1; [\"pending\"] = {"
        lua += pendingIn.map { "[\(Self.quote($0.description))] = true;" }.joined()
        lua += "}; };\n"
        for item in items {
            lua += "[\(Self.quote(item.jid.description))] = { [\"subscription\"] = \(Self.quote(item.subscription)); "
            if let name = item.name { lua += "[\"name\"] = \(Self.quote(name)); " }
            if item.ask { lua += "[\"ask\"] = \"subscribe\"; " }
            lua += "[\"groups\"] = {" + item.groups.map { "[\(Self.quote($0))] = true;" }.joined() + "}; };\n"
        }
        lua += "};\n"
        try lua.write(to: folder.appendingPathComponent(Self.encode(account.local ?? "") + ".dat"), atomically: true, encoding: .utf8)
    }

    /// Prosody's file names: every byte that is not a letter or digit as `%xx`.
    private static func encode(_ name: String) -> String {
        name.utf8.map { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                ? String(UnicodeScalar(byte)) : String(format: "%%%02x", byte)
        }.joined()
    }

    private static func quote(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}

/// A Prosody of one test's own (`scripts/xmpp/prosody-instance`), which the test may stop and
/// start again; its folder is removed by ``remove()``.
final class OwnProsody: @unchecked Sendable {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-own-prosody-\(UUID().uuidString)")
    private(set) var server = ProsodyTestServer(port: 0, certificate: "", config: "")
    private let extraConfig: String

    /// A server with `extraConfig` (Lua lines) in its global section.
    private init(extraConfig: String) {
        self.extraConfig = extraConfig
    }

    /// Runs `body` with a server of its own, started with `extraConfig` (Lua lines) in its global
    /// section, and stopped and removed afterwards, whatever `body` does.
    static func with<Result>(extraConfig: String = "", _ body: (OwnProsody) async throws -> Result) async throws -> Result {
        let own = OwnProsody(extraConfig: extraConfig)
        do {
            try await own.start()
            let result = try await body(own)
            await own.remove()
            return result
        } catch {
            await own.remove()
            throw error
        }
    }

    /// Starts the server; the script leaves its port, certificate and config in the folder.
    func start() async throws {
        try await Self.run(["start", folder.path], extraConfig: extraConfig)
        let port = try String(contentsOf: folder.appendingPathComponent("port"), encoding: .utf8)
        server = ProsodyTestServer(
            port: Int(port.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0,
            certificate: folder.appendingPathComponent("certs/\(ProsodyTestServer.domain).crt").path,
            config: folder.appendingPathComponent("prosody.cfg.lua").path
        )
    }

    func stop() async throws {
        try await Self.run(["stop", folder.path], extraConfig: extraConfig)
    }

    func remove() async {
        try? await stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs the script without reading its output: the Prosody it leaves running could hold a
    /// pipe open forever.
    private static func run(_ arguments: [String], extraConfig: String) async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/xmpp/prosody-instance")
        let instance = try ChildProcess.spawn(
            [script.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(["PROSODY_EXTRA_CONFIG": extraConfig]) { _, new in new }
        )
        guard await instance.exitCode() == 0 else { throw ProsodyTestError.instanceFailed(arguments.joined(separator: " ")) }
    }
}
