import Foundation

@testable import KinshipXMPP

extension FuzzTarget {
    static let chatTargets: [FuzzTarget] = [
        FuzzTarget(name: "xml", summary: "the XMPP stream from a server, fed in two pieces") { bytes in
            var parser = XMLStreamParser(limits: .init(maxStanzaBytes: 64 * 1024, maxDepth: 32))
            let (first, second) = bytes.halves
            do throws(XMLStreamError) {
                _ = try parser.feed(first)
                _ = try parser.feed(second)
                try parser.finish()
            } catch {
                return
            }
        },
        FuzzTarget(name: "jid", summary: "chat addresses") { bytes in
            guard let jid = JID(bytes.text) else { return }
            invariant(JID(jid.description) == jid, "an address written out reads back the same")
        },
        FuzzTarget(name: "scram", summary: "SCRAM server-first and server-final messages") { bytes in
            let (first, final) = bytes.halves
            let challenge = first.text
            // PBKDF2 rounds cost time by design; past a few thousand they only slow the search down.
            if let rounds = challenge.split(separator: ",").first(where: { $0.hasPrefix("i=") }).flatMap({ Int($0.dropFirst(2)) }),
                rounds > 5_000
            {
                return
            }
            for hash in SCRAMClient.Hash.allCases {
                var client = SCRAMClient(hash: hash, username: "ada", password: "pencil", clientNonce: "fyko+d2lbbFgONRv9qkxdawL")
                guard (try? client.respond(to: challenge)) != nil else { continue }
                try? client.verify(serverFinal: final.text)
            }
        },
        FuzzTarget(name: "dns", summary: "DNS answers to an SRV query") { bytes in
            guard let records = try? DNSMessage.srvRecords(in: Array(bytes), id: 0x4B53) else { return }
            invariant(DNSMessage.ordered(records).count == records.count, "ordering keeps every record")
        },
    ]
}
