import ArgumentParser
import KinshipXMPP

/// Where a chat server is and how far to trust it: shared by `kinship chat` and `kinship roster`.
struct ChatServerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The chat server's host (default: the chat domain).", valueName: "host")) var host: String?
    @Option(help: "The chat server's port (default: 5222).") var port: Int?
    @Option(
        name: .customLong("trust-cert"),
        help: ArgumentHelp("Trust only this PEM certificate (a local test server's self-signed one).", valueName: "file")
    )
    var trustCert: String?
    @Option(help: ArgumentHelp("Seconds to wait for each step before giving up.", valueName: "seconds")) var timeout: Int = 15

    func validate() throws {
        if let port, !(1...65535).contains(port) { throw ValidationError("--port must be between 1 and 65535.") }
        guard timeout > 0 else { throw ValidationError("--timeout must be positive.") }
    }

    var trust: XMPPConfiguration.Trust { trustCert.map { .certificate(path: $0) } ?? .system }
}

extension XMPPClient {
    /// Connects, runs `body`, and disconnects, whatever `body` does.
    nonisolated func session<Result>(_ body: (XMPPClient) async throws -> Result) async throws -> Result {
        try await connect()
        do {
            let result = try await body(self)
            await disconnect()
            return result
        } catch {
            await disconnect()
            throw error
        }
    }
}
