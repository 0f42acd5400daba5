import Foundation
import KinshipXMPP
import Testing

/// `scripts/xmpp/scram_server.py`: a scripted server offering what ejabberd 23.01 offers by
/// default (SCRAM-SHA-512, PLAIN, X-OAUTH2 — no SCRAM-SHA-256 or -1), for the login paths a
/// Prosody cannot show.
final class ScriptedServer: @unchecked Sendable {
    let port: Int
    let certificate: String
    private let child: ChildProcess
    private let output = Pipe()

    init(user: String, password: String, domain: String) throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/xmpp/scram_server.py")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-scram-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        child = try ChildProcess.spawn(
            ["python3", script.path, "--user", user, "--password", password, "--domain", domain, "--folder", folder.path],
            output: output.fileHandleForWriting.fileDescriptor
        )
        try output.fileHandleForWriting.close()
        var line = Data()
        var byte: UInt8 = 0
        let descriptor = output.fileHandleForReading.fileDescriptor
        while byte != UInt8(ascii: "\n") {
            guard read(descriptor, &byte, 1) == 1 else { throw ScriptedServerError.didNotStart }
            line.append(byte)
        }
        let words = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard words.count >= 3, words[0] == "ready", let port = Int(words[1]) else { throw ScriptedServerError.didNotStart }
        self.port = port
        certificate = String(words[2])
    }

    /// Ends the server (SIGKILL: it holds the test's standard error, which the test runner reads
    /// to the end).
    func stop() {
        kill(child.pid, SIGKILL)
        child.reapWhenDone()
    }
}

enum ScriptedServerError: Error {
    case didNotStart
}

@Suite("A server offering only SCRAM-SHA-512, PLAIN and X-OAUTH2 (as ejabberd 23.01 does)", .timeLimit(.minutes(2)))
struct ScriptedServerTests {
    @Test("SCRAM-SHA-512 logs in, the server's signature checked; a wrong password is notAuthorized")
    func scramSHA512() async throws {
        let server = try ScriptedServer(user: "ada", password: "correct horse", domain: "scram.test")
        defer { server.stop() }
        let jid = try #require(JID("ada@scram.test"))
        func configuration(_ password: String) -> XMPPConfiguration {
            XMPPConfiguration(
                jid: jid,
                password: password,
                host: "127.0.0.1",
                port: server.port,
                trust: .certificate(path: server.certificate),
                timeout: .seconds(10)
            )
        }
        let connection = XMPPConnection(configuration: configuration("correct horse"))
        let loginStarted = ContinuousClock.now
        #expect(try await connection.connect() == JID("ada@scram.test/scripted"))
        let login = ContinuousClock.now - loginStarted
        await connection.disconnect()
        // The server stops reading the refused connection, so it never answers the client's TLS
        // goodbye: waiting for the answer
        // (NIOSSL's default, 5 s) would show as a refusal far slower than the login beside it,
        // whatever else the machine is busy with.
        let refusalStarted = ContinuousClock.now
        await #expect(throws: XMPPError.notAuthorized) { try await XMPPConnection(configuration: configuration("wrong")).connect() }
        let refusal = ContinuousClock.now - refusalStarted
        #expect(refusal < login + .seconds(3), "a refused login ends at once (login \(login), refusal \(refusal))")
    }
}
