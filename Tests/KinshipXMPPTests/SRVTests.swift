import Foundation
import PropertyBased
import Testing

@testable import KinshipXMPP

/// dnsmasq's answer for `_xmpp-client._tcp.kinship.test` → `localhost:5222` (priority 0, weight 5).
private let recordedAnswer = Array(
    hex: "1234858000010001000000000c5f786d70702d636c69656e74045f746370076b696e7368697004746573740000210001"
        + "c00c00210001000000000011000000051466096c6f63616c686f737400"
)

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        self = bytes
    }
}

@Suite("DNS SRV", .timeLimit(.minutes(3)))
struct SRVTests {
    @Test("a recorded answer with a compressed name reads back as its record; the query is well formed")
    func parsing() throws {
        #expect(try DNSMessage.srvRecords(in: recordedAnswer, id: 0x1234) == [SRVRecord(priority: 0, weight: 5, port: 5222, target: "localhost")])
        #expect(throws: SRVLookupError.malformed("the answer is for another query")) { try DNSMessage.srvRecords(in: recordedAnswer, id: 1) }
        #expect(
            DNSMessage.srvQuery(id: 0x1234, name: "_xmpp-client._tcp.kinship.test")
                == Array(
                    hex: "123401000001000000000000"
                        + "0c5f786d70702d636c69656e74045f746370076b696e7368697004746573740000210001"
                )
        )
    }

    @Test(
        "truncated, looping and failed answers are errors",
        arguments: [
            (Array(recordedAnswer.prefix(40)), "ends early"),
            (Array(recordedAnswer.prefix(recordedAnswer.count - 3)), "runs past"),
            (Array(hex: "123481830001000000000000"), "nxdomain"),
            (Array(hex: "123481820000000000000000"), "servfail"),
            (Array(hex: "123483800000000000000000"), "truncated"),
            (Array(hex: "123481800000000100000000c00c00210001000000000011"), "pointer loop"),
        ]
    )
    func broken(answer: [UInt8], what: String) throws {
        if what == "nxdomain" {
            #expect(try DNSMessage.srvRecords(in: answer, id: 0x1234) == [])
        } else {
            #expect(throws: SRVLookupError.self, "\(what)") { try DNSMessage.srvRecords(in: answer, id: 0x1234) }
        }
    }

    @Test func randomDamageNeverCrashes() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100_000).array(of: 1...8)) { edits in
            var bytes = recordedAnswer
            for edit in edits { bytes[edit % bytes.count] = UInt8(truncatingIfNeeded: edit / 97) }
            _ = try? DNSMessage.srvRecords(in: bytes, id: 0x1234)
        }
    }

    @Test("records are tried by priority, and within one by weight")
    func ordering() {
        let records = [
            SRVRecord(priority: 10, weight: 0, port: 3, target: "c"), SRVRecord(priority: 0, weight: 1, port: 1, target: "a"),
            SRVRecord(priority: 0, weight: 0, port: 2, target: "b"),
        ]
        let ordered = DNSMessage.ordered(records)
        #expect(ordered.last?.target == "c")
        #expect(Set(ordered.prefix(2).map(\.target)) == ["a", "b"])
    }

    @Test("/etc/resolv.conf's first nameserver is the default server")
    func resolvConf() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("resolv-\(UUID().uuidString).conf")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# comment\nsearch example.com\nnameserver 10.0.0.2\nnameserver 10.0.0.3\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(SRVResolver.Server.system(resolvConf: file.path) == SRVResolver.Server(host: "10.0.0.2"))
    }

    @Test(
        "with the domain's SRV record served by dnsmasq, the client finds the server by itself",
        .enabled(if: ProsodyTestServer.isWanted),
        .needsProsody,
        .needsTestDNS
    )
    func connectThroughSRV() async throws {
        let server = SRVResolver.Server(host: "127.0.0.1", port: Int(ProcessInfo.processInfo.environment["KINSHIP_TEST_DNS_PORT"] ?? "") ?? 53)
        #expect(
            try await SRVResolver(server: server).lookup("_xmpp-client._tcp.\(ProsodyTestServer.domain)")
                == [SRVRecord(priority: 0, weight: 5, port: UInt16(ProsodyTestServer.port), target: "localhost")]
        )
        let ada = try await ProsodyTestServer.register("ada")
        var configuration = ProsodyTestServer.configuration(ada)
        configuration.host = nil
        configuration.usesSRV = true
        configuration.dnsServer = server
        let connection = XMPPConnection(configuration: configuration)
        #expect(try await connection.connect().bare == ada)
        await connection.disconnect()
    }
}
