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
