import Foundation
import KinshipXMPP

// One side of Benchmarks/roster_fetch.py: logs in to the benchmark's Prosody as the seeded
// account, then times `fetchRoster()` through to a sectioned contact list, on a fresh client each
// round (so every fetch is a full one). Prints `items=N median_ms=M runs=a,b,c`.
// Usage: RosterBenchmark PORT CERT JID PASSWORD ROUNDS
let arguments = CommandLine.arguments
guard arguments.count == 6, let port = Int(arguments[1]), let jid = JID(arguments[3]), let rounds = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: RosterBenchmark PORT CERT JID PASSWORD ROUNDS\n".utf8))
    exit(2)
}
var options = XMPPClient.Options()
options.autoFetchRoster = false
options.initialPresence = nil
let configuration = XMPPConfiguration(jid: jid, password: arguments[4], host: "127.0.0.1", port: port,
    trust: .certificate(path: arguments[2]), timeout: .seconds(30))
var times: [Double] = []
var items = 0
for _ in 0..<rounds {
    let client = XMPPClient(configuration: configuration, options: options)
    try await client.connect()
    let start = ContinuousClock.now
    try await client.fetchRoster()
    let list = await client.contactList()
    let elapsed = ContinuousClock.now - start
    items = list.count
    precondition(list.numberOfSections > 1, "the list must be sectioned")
    times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    await client.disconnect()
}
let sorted = times.sorted()
print("items=\(items) median_ms=\(String(format: "%.1f", sorted[sorted.count / 2])) runs=\(times.map { String(format: "%.1f", $0) }.joined(separator: ","))")
