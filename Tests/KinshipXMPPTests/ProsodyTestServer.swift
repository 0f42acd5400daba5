import Foundation
import KinshipXMPP

/// The Prosody that `scripts/test` starts on 127.0.0.1 (see `scripts/lib/prosody.sh`), found
/// through `KINSHIP_TEST_XMPP_*`; tests that need it are skipped without it.
enum ProsodyTestServer {
    static let environment = ProcessInfo.processInfo.environment
    static var isRunning: Bool { environment["KINSHIP_TEST_XMPP_PORT"] != nil }
    static var port: Int { Int(environment["KINSHIP_TEST_XMPP_PORT"] ?? "") ?? 5222 }
    static var domain: String { environment["KINSHIP_TEST_XMPP_DOMAIN"] ?? "kinship.test" }
    static var certificate: String { environment["KINSHIP_TEST_XMPP_CERT"] ?? "" }
    static let password = "correct horse battery"

    /// Registers a new account with a unique name starting with `prefix`; returns its JID.
    static func register(_ prefix: String) throws -> JID {
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["prosodyctl", "--config", environment["KINSHIP_TEST_PROSODY_CONFIG"] ?? "", "register", name, domain, password]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let jid = JID("\(name)@\(domain)") else {
            throw ProsodyTestError.registrationFailed(name)
        }
        return jid
    }

    /// How a test client reaches the test server as `jid`.
    static func configuration(_ jid: JID, password: String = password, timeout: Duration = .seconds(10)) -> XMPPConfiguration {
        XMPPConfiguration(jid: jid, password: password, host: "127.0.0.1", port: port, trust: .certificate(path: certificate),
            timeout: timeout)
    }
}

enum ProsodyTestError: Error {
    case registrationFailed(String)
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
    static func seedRoster(of account: JID, items: [SeededItem], pendingIn: [JID] = []) throws {
        let config = URL(fileURLWithPath: environment["KINSHIP_TEST_PROSODY_CONFIG"] ?? "")
        let folder = config.deletingLastPathComponent().appendingPathComponent("data/\(encode(domain))/roster")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var lua = "return {\n[false] = { [\"version\"] = 1; [\"pending\"] = {"
        lua += pendingIn.map { "[\(quote($0.description))] = true;" }.joined()
        lua += "}; };\n"
        for item in items {
            lua += "[\(quote(item.jid.description))] = { [\"subscription\"] = \(quote(item.subscription)); "
            if let name = item.name { lua += "[\"name\"] = \(quote(name)); " }
            if item.ask { lua += "[\"ask\"] = \"subscribe\"; " }
            lua += "[\"groups\"] = {" + item.groups.map { "[\(quote($0))] = true;" }.joined() + "}; };\n"
        }
        lua += "};\n"
        try lua.write(to: folder.appendingPathComponent(encode(account.local ?? "") + ".dat"), atomically: true, encoding: .utf8)
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
