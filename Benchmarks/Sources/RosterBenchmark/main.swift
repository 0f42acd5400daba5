import Foundation
import KinshipXMPP

// One side of Benchmarks/roster_fetch.py and chat_roster.py: logs in to a Prosody as the seeded
// account, then times `fetchRoster()` through to a sectioned contact list, on a fresh client each
// round (so every fetch is a full one). With --with-login the time starts before logging in;
// with --token the credential is a Kinship access token (OAUTHBEARER) instead of a password.
// Prints `items=N median_ms=M runs=a,b,c`.
// Usage: RosterBenchmark PORT CERT JID PASSWORD|TOKEN ROUNDS [--token] [--with-login]
let arguments = CommandLine.arguments.filter { !$0.hasPrefix("--") }
let flags = Set(CommandLine.arguments.filter { $0.hasPrefix("--") })
guard arguments.count == 6, let port = Int(arguments[1]), let jid = JID(arguments[3]), let rounds = Int(arguments[5]) else {
    FileHandle.standardError.write(Data("usage: RosterBenchmark PORT CERT JID PASSWORD|TOKEN ROUNDS [--token] [--with-login]\n".utf8))
    exit(2)
}
var options = XMPPClient.Options()
options.autoFetchRoster = false
options.initialPresence = nil
let credential = arguments[4]
let configuration =
    flags.contains("--token")
    ? XMPPConfiguration(
        jid: jid,
        tokenProvider: { credential },
        host: "127.0.0.1",
        port: port,
        trust: .certificate(path: arguments[2]),
        timeout: .seconds(30)
    )
    : XMPPConfiguration(
        jid: jid,
        password: credential,
        host: "127.0.0.1",
        port: port,
        trust: .certificate(path: arguments[2]),
        timeout: .seconds(30)
    )
let withLogin = flags.contains("--with-login")
var times: [Double] = []
var items = 0
for _ in 0..<rounds {
    let client = XMPPClient(configuration: configuration, options: options)
    let loginStart = ContinuousClock.now
    try await client.connect()
    let start = withLogin ? loginStart : ContinuousClock.now
    try await client.fetchRoster()
    let list = await client.contactList()
    let elapsed = ContinuousClock.now - start
    items = list.count
    precondition(list.numberOfSections > 1, "the list must be sectioned")
    times.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000)
    await client.disconnect()
}
let sorted = times.sorted()
print(
    "items=\(items) median_ms=\(String(format: "%.1f", sorted[sorted.count / 2])) runs=\(times.map { String(format: "%.1f", $0) }.joined(separator: ","))"
)
