// The write storm of issue 13: many people signing up, logging in, consenting, exchanging codes
// and sending friend requests at the same moment against a running `kinship serve`, with one
// reader beside them. Driven by write_storm.py, which builds and starts the server.
//
// Prints, side by side, each kind of request's p50 and p99 with one person (the baseline) and with
// the storm's many, the storm's password checks per second against bare bcrypt on the same
// cores, and exits 1 when a target is missed: any error, or a write that hashes no password (or
// the read) slower than 250 ms at p99.
//
// Usage: WriteStorm BASE-URL CLIENT-ID [PEOPLE=64] [SECONDS=60] [BCRYPT-COST=12]
import AsyncHTTPClient
import BenchmarkBrowser
import Foundation
import HummingbirdBcrypt

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: WriteStorm BASE-URL CLIENT-ID [PEOPLE=64] [SECONDS=60] [BCRYPT-COST=12]\n".utf8))
    exit(2)
}
let base = arguments[1]
let clientID = arguments[2]
let people = arguments.count > 3 ? Int(arguments[3]) ?? 64 : 64
let seconds = arguments.count > 4 ? Int(arguments[4]) ?? 60 : 60
let cost = arguments.count > 5 ? UInt8(arguments[5]) ?? 12 : 12
let target = 250.0
let passwordKinds: Set<String> = ["login", "sign-up"]

var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(120)))
configuration.connectionPool = .init(idleTimeout: .seconds(120), concurrentHTTP1ConnectionsPerHostSoftLimit: people + 8)
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let storm = Storm(client: client, base: base, clientID: clientID)

print("==> bare bcrypt (cost \(cost)) on two threads for 5 s")
let bcryptRate = await BcryptRate.measure(cost: cost, threads: 2, seconds: 5)
print(String(format: "    %.1f password checks per second", bcryptRate))

print("==> baseline: 1 person for 15 s")
let baseline = Timings()
try await storm.run(people: 1, for: .seconds(15), into: baseline)
print("==> storm: \(people) people for \(seconds) s")
let loaded = Timings()
let stormStart = ContinuousClock.now
try await storm.run(people: people, for: .seconds(seconds), into: loaded)
let stormSeconds = Double((ContinuousClock.now - stormStart).components.seconds)
try await client.shutdown().get()

let quiet = await baseline.histograms
let busy = await loaded.histograms
let failures = await baseline.failures + loaded.failures
var missed: [String] = []
print("")
func column(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
print(column("request", 20) + "  1 person:      n   p50 ms   p99 ms   \(people) people:      n   p50 ms   p99 ms   p99 ratio   target")
for kind in Storm.cycle.reduce(into: [String](), { if !$0.contains($1) { $0.append($1) } }) + ["read (dialog page)"] {
    guard let one = quiet[kind], let many = busy[kind] else { continue }
    let hashes = passwordKinds.contains(kind)
    let p99 = many.milliseconds(at: 99)
    let verdict = hashes ? "bcrypt-bound" : (p99 < target ? "< 250 ms ok" : "< 250 ms MISSED")
    if !hashes, p99 >= target { missed.append("\(kind) p99 \(p99) ms") }
    print(
        column(kind, 20)
            + String(
                format: " %16d %8.1f %8.1f %17d %8.1f %8.1f %10.1fx   ",
                one.totalCount,
                one.milliseconds(at: 50),
                one.milliseconds(at: 99),
                many.totalCount,
                many.milliseconds(at: 50),
                p99,
                p99 / max(one.milliseconds(at: 99), 0.001)
            ) + verdict
    )
}
let checks = passwordKinds.compactMap { busy[$0]?.totalCount }.reduce(0, +)
let checkRate = Double(checks) / max(stormSeconds, 1)
print(
    String(
        format: "\npassword checks in the storm: %.1f/s; bare bcrypt on the same cores: %.1f/s; ratio %.2f",
        checkRate,
        bcryptRate,
        checkRate / bcryptRate
    )
)
print("errors: \(failures.count)")
for failure in failures.prefix(10) { print("  \(failure)") }
if !failures.isEmpty { missed.append("\(failures.count) errors") }
print(missed.isEmpty ? "write storm: every target met" : "write storm: MISSED " + missed.joined(separator: "; "))
exit(missed.isEmpty ? 0 : 1)
