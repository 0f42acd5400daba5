import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// Who a request comes from behind a reverse proxy (`--trusted-proxy`): the rule every
/// per-address limit counts by.
@Suite("The client's address behind a proxy", .timeLimit(.minutes(3)))
struct ClientAddressTests {
    @Test("CIDR ranges parse, IPv4 and IPv6, and hold the addresses they should")
    func networks() throws {
        let private10 = try #require(IPNetwork("10.0.0.0/8"))
        #expect(private10.contains("10.200.3.4") && !private10.contains("11.0.0.1"))
        #expect(private10.contains("::ffff:10.1.2.3"), "an IPv4 address written as IPv6")
        let documentation = try #require(IPNetwork("2001:db8::/32"))
        #expect(documentation.contains("2001:db8:1::5") && !documentation.contains("2001:db9::1") && !documentation.contains("10.0.0.1"))
        #expect(IPNetwork("192.168.1.7")?.contains("192.168.1.7") == true && IPNetwork("192.168.1.7")?.contains("192.168.1.8") == false)
        #expect(IPNetwork("172.16.0.0/12")?.contains("172.31.255.255") == true && IPNetwork("172.16.0.0/12")?.contains("172.32.0.0") == false)
        #expect(IPNetwork("0.0.0.0/0")?.contains("8.8.8.8") == true)
        #expect(IPNetwork("10.0.0.0/8")?.description == "10.0.0.0/8")
        for bad in ["", "10.0.0.0/33", "10.0.0/8", "::1/129", "example.com", "10.0.0.0/-1", "10.0.0.0/+8", "10.0.0.0/8/8"] {
            #expect(IPNetwork(bad) == nil, "\(bad)")
        }
    }

    @Test("the forwarded chain is read from the right, past trusted proxies only")
    func resolving() throws {
        let resolver = ClientAddress(trustedProxies: [try #require(IPNetwork("127.0.0.1")), try #require(IPNetwork("10.0.0.0/8"))])
        func resolve(_ peer: String, _ fields: [(String, String)]) -> String {
            var headers = HTTPFields()
            for (name, value) in fields { headers.append(HTTPField(name: HTTPField.Name(name)!, value: value)) }
            return resolver.resolve(peer: peer, headers: headers)
        }
        #expect(resolve("203.0.113.9", [("X-Forwarded-For", "198.51.100.1")]) == "203.0.113.9", "an untrusted peer's header is ignored")
        #expect(resolve("127.0.0.1", []) == "127.0.0.1", "a proxy that forwards nothing is the client")
        #expect(resolve("127.0.0.1", [("X-Forwarded-For", "198.51.100.1")]) == "198.51.100.1")
        #expect(
            resolve("127.0.0.1", [("X-Forwarded-For", "1.2.3.4, 198.51.100.1, 10.0.0.7")]) == "198.51.100.1",
            "what the client wrote itself (1.2.3.4) is not believed"
        )
        #expect(resolve("127.0.0.1", [("X-Forwarded-For", "1.2.3.4"), ("X-Forwarded-For", "198.51.100.1")]) == "198.51.100.1")
        #expect(resolve("127.0.0.1", [("X-Forwarded-For", "10.0.0.8, 10.0.0.7")]) == "10.0.0.8", "every hop trusted: the first")
        #expect(
            resolve("127.0.0.1", [("X-Forwarded-For", "1.2.3.4, not-an-address")]) == "127.0.0.1",
            "a garbled hop from a trusted proxy falls back to the peer"
        )
        #expect(
            resolve("127.0.0.1", [("Forwarded", #"for=192.0.2.60;proto=https, for="[2001:db8:cafe::17]:4711""#)])
                == "2001:db8:cafe::17"
        )
        #expect(
            resolve("127.0.0.1", [("Forwarded", "for=192.0.2.60:8080;by=10.0.0.1"), ("X-Forwarded-For", "198.51.100.1")])
                == "192.0.2.60",
            "Forwarded wins over X-Forwarded-For"
        )
        #expect(resolve("::ffff:127.0.0.1", [("X-Forwarded-For", "198.51.100.1")]) == "198.51.100.1")
    }

    @Test(
        "behind a trusted proxy the login limit counts each forwarded address; without one the header changes nothing",
        arguments: TestEngine.enabled
    )
    func loginLimits(engine: TestEngine) async throws {
        let limits = ServerConfiguration.LoginLimits(perAccount: 1_000, perAddress: 3)
        try await withLiveServer(
            engine,
            configure: {
                $0.loginLimits = limits
                $0.trustedProxies = [IPNetwork("127.0.0.1")!]
            }
        ) { server in
            _ = try await server.makeUser()
            let statuses = try await wrongPasswords(server, from: ["198.51.100.1", "198.51.100.2"], each: 6)
            #expect(statuses["198.51.100.1"]?.filter { $0 == .unauthorized }.count == 3, "\(statuses)")
            #expect(statuses["198.51.100.2"]?.filter { $0 == .unauthorized }.count == 3, "each address has its own 3")
        }
        try await withLiveServer(engine, configure: { $0.loginLimits = limits }) { server in
            _ = try await server.makeUser()
            let statuses = try await wrongPasswords(server, from: ["198.51.100.1", "198.51.100.2"], each: 6)
            #expect(statuses.values.joined().filter { $0 == .unauthorized }.count == 3, "one address, the peer's: \(statuses)")
        }
    }

    /// `each` wrong passwords at once from each forwarded address; the statuses by address.
    private func wrongPasswords(_ server: LiveServer, from addresses: [String], each: Int) async throws -> [String: [HTTPResponse.Status]] {
        let tries = addresses.flatMap { Array(repeating: $0, count: each) }
        let statuses = try await server.withBrowsers(tries.count) { browsers in
            try await concurrently(browsers) { index, browser in
                let page = try await browser.get("/login")
                let csrf = try #require(page.csrfToken)
                var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                headers[.xForwardedFor] = tries[index]
                let form: FormParameters = ["csrf_token": csrf, "login": "ada@example.com", "password": "wrong password", "next": "/account"]
                return try await browser.send("/login", method: .post, headers: headers, body: .init(string: form.formEncoded)).status
            }
        }
        return Dictionary(grouping: zip(tries, statuses), by: \.0).mapValues { $0.map(\.1) }
    }
}
