// Issue 17, item 4: logins per second through the dialog at bcrypt cost 12, beside the bare
// bcrypt-verify rate of the same cores; device logins and refresh grants per second. Driven by
// login_throughput.py, which builds a platform with `kinship populate` (so every login is a new
// person's, with a consent page) and starts the server.
//
// 1. Bare bcrypt: verify at COST on as many threads as there are cores, with the server idle.
// 2. Logins: WORKERS people at a time, each a new one (personN@people.example, N from FIRST), the
//    whole login: the dialog's login form, its consent page, the code exchange. Target: ≥ 90% of
//    the bare rate — the password hash should be the only real cost.
// 3. Device logins: WORKERS at a time, each device polling at the interval the server gives.
// 4. Refresh grants: each worker rotating the refresh token one of its logins gave.
//
// Prints the figures and the ratio; exits 1 when the target is missed or a request fails.
//
// Usage: LoginThroughput BASE-URL CLIENT-ID FIRST-PERSON [SECONDS=20] [WORKERS=8] [COST=12]
import AsyncHTTPClient
import BenchmarkBrowser
import Foundation
import NIOConcurrencyHelpers

let arguments = CommandLine.arguments
guard arguments.count >= 4, let firstPerson = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: LoginThroughput BASE-URL CLIENT-ID FIRST-PERSON [SECONDS=20] [WORKERS=8] [COST=12]\n".utf8))
    exit(2)
}
let seconds = arguments.count > 4 ? Int(arguments[4]) ?? 20 : 20
let workers = arguments.count > 5 ? Int(arguments[5]) ?? 8 : 8
let cost = arguments.count > 6 ? UInt8(arguments[6]) ?? 12 : 12
let target = 0.90
let cores = ProcessInfo.processInfo.activeProcessorCount

var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(120)))
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: workers * 3 + 4)
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let login = Login(client: client, base: arguments[1], clientID: arguments[2])
let nextPerson = NIOLockedValueBox(firstPerson)
@Sendable func newPerson() -> String {
    nextPerson.withLockedValue { next in
        defer { next += 1 }
        return "person\(next)@people.example"
    }
}

/// Runs `work` on `workers` tasks for `seconds`; returns how many finished per second and what they returned.
func throughput<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> (Double, [T]) {
    let started = ContinuousClock.now
    let deadline = started + .seconds(seconds)
    let results = try await withThrowingTaskGroup(of: [T].self) { group in
        for _ in 0..<workers {
            group.addTask {
                var done: [T] = []
                while ContinuousClock.now < deadline { done.append(try await work()) }
                return done
            }
        }
        return try await group.reduce(into: [T]()) { $0 += $1 }
    }
    let elapsed = ContinuousClock.now - started
    return (Double(results.count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18), results)
}

print("==> bare bcrypt verify (cost \(cost)) on \(cores) threads for 5 s")
let bcrypt = await BcryptRate.measure(cost: cost, threads: cores, seconds: 5)
print(String(format: "    %.2f password checks per second", bcrypt))
print("==> logins through the dialog: \(workers) new people at a time for \(seconds) s")
let (logins, refreshTokens) = try await throughput { try await login.dialog(as: newPerson()) }
print(String(format: "    %.2f logins per second", logins))
print("==> device logins: \(workers) devices at a time for \(seconds) s")
let (devices, _) = try await throughput { try await login.device(as: newPerson()) }
print(String(format: "    %.2f device logins per second", devices))
print("==> refresh grants: \(workers) families rotating for \(seconds) s")
let tokens = NIOLockedValueBox(Array(refreshTokens.prefix(workers)))
let (refreshes, _) = try await throughput {
    let mine = tokens.withLockedValue { $0.popLast() }
    guard var token = mine else { return 0 }
    defer { tokens.withLockedValue { $0.append(token) } }
    token = try await login.refresh(token)
    return 1
}
try await client.shutdown().get()

let ratio = logins / bcrypt
print("")
print("Logins at bcrypt cost \(cost), \(workers) at a time, the driver on the same \(cores) cores as the server")
print("                                                       per second")
func row(_ label: String, _ rate: Double, _ note: String = "") {
    print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%12.2f", rate) + note)
}
row("bare bcrypt verify (the floor of a login)", bcrypt)
row(
    "login: dialog login form, consent, code exchange",
    logins,
    String(format: "   %.0f%% of bare bcrypt   target ≥ 90%% %@", ratio * 100, ratio >= target ? "✓" : "✗ MISSED")
)
row("device login: code, /device login, consent, polls", devices)
row("refresh grant", refreshes)
exit(ratio >= target ? 0 : 1)
