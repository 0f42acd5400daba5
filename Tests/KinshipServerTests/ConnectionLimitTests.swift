import Foundation
import KinshipServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Clients that open connections and never finish a request: closed after the idle timeout, and
/// no more of them than the connection cap at once, while everyone else is answered.
@Suite("Idle timeout and connection cap", .timeLimit(.minutes(3)))
struct ConnectionLimitTests {
    @Test("half a request head is closed after the idle timeout; a finished one is answered")
    func headerTimeout() async throws {
        // Seconds, not less: on a machine busy with every other test a quick request must not
        // look idle. The waits leave the same margin.
        try await withLiveServer(.sqlite, configure: { $0.idleTimeout = 2 }) { server in
            let port = try #require(server.client.port)
            let slow = try RawConnection(port: port)
            try slow.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
            #expect(slow.waitForClose(within: .seconds(15)), "closed by the server")
            let quick = try RawConnection(port: port)
            try quick.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(quick.readAll(within: .seconds(15)).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("past the cap new connections are closed at once; the server answers again when some close")
    func connectionCap() async throws {
        try await withLiveServer(
            .sqlite,
            configure: {
                $0.maxConnections = 8
                $0.idleTimeout = 60
            }
        ) { server in
            let port = try #require(server.client.port)
            // The test client holds one connection already.
            var held: [RawConnection] = []
            for _ in 0..<7 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
                held.append(connection)
            }
            try await Task.sleep(for: .milliseconds(500))
            // "At once" next to the held ones, which stay open for the 60 s idle timeout; the
            // margin is for a machine busy with every other test.
            let refused = try RawConnection(port: port)
            #expect(refused.waitForClose(within: .seconds(10)), "the ninth connection is closed at once")
            for connection in held { connection.close() }
            var answer = ""
            for _ in 0..<20 where !answer.hasPrefix("HTTP/1.1 200") {
                try await Task.sleep(for: .milliseconds(250))
                let later = try RawConnection(port: port)
                try later.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
                answer = later.readAll(within: .seconds(2))
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"), "the closed connections no longer count")
        }
    }
}

/// A blocking TCP socket to 127.0.0.1, for sending exactly the bytes a misbehaving client sends.
final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw RawConnectionError.cannotConnect(errno) }
    }

    deinit { close() }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard write(descriptor, bytes, bytes.count) == bytes.count else { throw RawConnectionError.cannotSend(errno) }
    }

    /// Whether the server closes the connection within `timeout` (reads return end of file or a reset).
    func waitForClose(within timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            if read(descriptor, &buffer, buffer.count) <= 0 { return true }
        }
        return false
    }

    /// What the server sends within `timeout`, until it has sent a full response head and body or closes.
    func readAll(within timeout: Duration) -> String {
        let deadline = ContinuousClock.now + timeout
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else {
                if !received.isEmpty { break }
                continue
            }
            let count = read(descriptor, &buffer, buffer.count)
            if count <= 0 { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
        Glibc.close(descriptor)
        #else
        Darwin.close(descriptor)
        #endif
        descriptor = -1
    }
}

enum RawConnectionError: Error {
    case cannotConnect(Int32)
    case cannotSend(Int32)
}
