import Foundation
import KinshipKit

/// Where the chat server of a Kinship is, as its `GET /chat/server` says (`kinship serve --chat`,
/// or an operator's `--chat-domain`).
struct ChatServerDiscovery: Decodable {
    let domain: String
    let host: String
    let port: Int
    /// The self-signed certificate of a loopback demo chat server.
    let certificate: String?

    /// Asks the Kinship at `server`; `nil` when it has no chat server.
    static func ask(_ server: String) async throws -> ChatServerDiscovery? {
        guard let url = URL(string: server.hasSuffix("/") ? server + "chat/server" : server + "/chat/server") else { return nil }
        let response: TransportResponse
        do {
            response = try await SystemTransport().send(TransportRequest(method: "GET", url: url, headers: [:], body: nil, timeout: 15))
        } catch {
            throw CLIError.chatServerUnknown("\(server) could not be asked where its chat server is (\(error))")
        }
        guard response.status == 200 else { return nil }
        return try? JSONDecoder().decode(ChatServerDiscovery.self, from: response.body)
    }

    /// Whether `server` is this machine: only then is a certificate it hands out trusted.
    static func isLoopback(_ server: String) -> Bool {
        guard let host = URL(string: server)?.host else { return false }
        return host == "127.0.0.1" || host == "localhost" || host == "::1" || host == "[::1]"
    }

    /// Writes the demo certificate where the chat commands keep it; its path.
    func savedCertificate(in folder: URL) throws -> String? {
        guard let certificate else { return nil }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("chat-\(host)-\(port).pem")
        try Data(certificate.utf8).write(to: file, options: .atomic)
        return file.path
    }
}
