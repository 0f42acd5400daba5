import Foundation
import KinshipXMPP

/// `scripts/xmpp/slixmpp_peer.py`: slixmpp as the other side of a test, logged in as `jid`,
/// answering nothing by itself. Commands go to its standard input; its reports are collected.
final class SlixmppPeer: @unchecked Sendable {
    let jid: JID
    private let child: ChildProcess
    private let input = Pipe()
    private let output = Pipe()
    private let lock = NSLock()
    private var received = ""

    init(jid: JID) throws {
        self.jid = jid
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/xmpp/slixmpp_peer.py")
        child = try ChildProcess.spawn(
            [
                "python3", script.path, "--jid", jid.description, "--password", ProsodyTestServer.password,
                "--port", String(ProsodyTestServer.port), "--cafile", ProsodyTestServer.certificate,
            ],
            input: input.fileHandleForReading.fileDescriptor,
            output: output.fileHandleForWriting.fileDescriptor
        )
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        output.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            guard let self, !data.isEmpty else { return }
            self.lock.withLock { self.received += String(decoding: data, as: UTF8.self) }
        }
    }

    /// Every line reported so far.
    var lines: [String] { lock.withLock { received.split(separator: "\n").map(String.init) } }

    func send(_ command: String) {
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
    }

    /// Waits (up to 15 s) for a reported line.
    func wait(for line: String) async throws {
        for _ in 0..<300 {
            if lines.contains(line) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw SlixmppPeerError.timedOut(waitingFor: line, got: lines)
    }

    /// Asks slixmpp to log out and quit; the process is reaped when it has.
    func stop() {
        send("quit")
        output.fileHandleForReading.readabilityHandler = nil
        child.reapWhenDone()
    }
}

enum SlixmppPeerError: Error {
    case timedOut(waitingFor: String, got: [String])
}
