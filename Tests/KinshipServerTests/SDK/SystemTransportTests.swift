import Foundation
import HTTPTypes
import Hummingbird
import KinshipKit
import NIOCore
import Testing

/// KinshipKit's own HTTP stack on this platform (AsyncHTTPClient on Linux), against a small
/// Hummingbird server the test runs: what a request carries, what a response gives back, and a
/// ``TransportError`` a person can act on when no response comes.
@Suite("SystemTransport")
struct SystemTransportTests {
    @Test("sends method, headers and body; follows redirects; joins repeated header fields")
    func roundTrip() async throws {
        try await withTestServer { base in
            let transport = SystemTransport()
            let echo = try await transport.send(
                TransportRequest(method: "POST", url: URL(string: base + "/echo")!, headers: ["X-Kinship": "yes"], body: Data("a=1&b=2".utf8))
            )
            #expect(echo.status == 201)
            #expect(String(decoding: echo.body, as: UTF8.self) == "POST yes a=1&b=2")
            #expect(echo.header("Vary") == "Accept, Cookie", "two Vary fields come back as one list")

            let redirected = try await transport.send(TransportRequest(url: URL(string: base + "/moved")!))
            #expect(redirected.status == 201)
            #expect(String(decoding: redirected.body, as: UTF8.self) == "GET - ")
        }
    }

    @Test("a refused connection fails at once as unreachable, saying what to check")
    func refused() async throws {
        let port = try await withTestServer { base in Int(base.split(separator: ":").last!)! }
        let started = ContinuousClock.now
        await #expect {
            try await SystemTransport().send(TransportRequest(url: URL(string: "http://127.0.0.1:\(port)/me")!, timeout: 20))
        } throws: { error in
            guard case .unreachable(let reason) = error as? TransportError else { return false }
            return reason.contains("nothing accepts connections at 127.0.0.1:\(port)")
        }
        #expect(ContinuousClock.now - started < .seconds(5), "no retries until the 20 s limit")
    }

    @Test("HTTPS to a server that speaks plain HTTP fails as unreachable, saying what to check")
    func notTLS() async throws {
        try await withTestServer { base in
            let url = URL(string: base.replacingOccurrences(of: "http://", with: "https://") + "/echo")!
            await #expect {
                try await SystemTransport().send(TransportRequest(url: url, timeout: 10))
            } throws: { error in
                guard case .unreachable(let reason) = error as? TransportError else { return false }
                return reason.hasPrefix("no TLS connection to 127.0.0.1:") && reason.contains("serves HTTPS")
            }
        }
    }

    @Test("a server that does not answer in time gives timedOut; a cancelled task gives cancelled")
    func timeoutAndCancellation() async throws {
        try await withTestServer { base in
            let url = URL(string: base + "/slow")!
            await #expect(throws: TransportError.timedOut(url)) {
                try await SystemTransport().send(TransportRequest(url: url, timeout: 0.3))
            }
            let request = Task { try await SystemTransport().send(TransportRequest(url: url, timeout: 20)) }
            try await Task.sleep(for: .milliseconds(100))
            request.cancel()
            await #expect(throws: TransportError.cancelled) { try await request.value }
        }
    }
}

/// Runs a Hummingbird server on a free loopback port for the length of `body`, which gets its base
/// URL: `POST /echo` answers 201 with the method, `X-Kinship` and the body, and two `Vary` fields;
/// `GET /moved` redirects to `/echo`; `GET /slow` answers after 10 seconds.
private func withTestServer<Result: Sendable>(_ body: @Sendable (String) async throws -> Result) async throws -> Result {
    let router = Router()
    let echo: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
        let sent = try await request.body.collect(upTo: 1 << 16)
        let text = "\(request.method) \(request.headers[HTTPField.Name("X-Kinship")!] ?? "-") \(String(buffer: sent))"
        var headers = HTTPFields()
        headers.append(HTTPField(name: .vary, value: "Accept"))
        headers.append(HTTPField(name: .vary, value: "Cookie"))
        return Response(status: .created, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
    router.post("/echo", use: echo)
    router.get("/echo", use: echo)
    router.get("/moved") { _, _ in Response(status: .found, headers: [.location: "/echo"]) }
    router.get("/slow") { _, _ -> String in
        try await Task.sleep(for: .seconds(10))
        return "late"
    }
    return try await withLoopbackServer(router, label: "test.transport-server") { port in try await body("http://127.0.0.1:\(port)") }
}
