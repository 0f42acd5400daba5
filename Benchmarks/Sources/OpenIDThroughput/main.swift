// The token endpoint's side of issue 14's benchmark, driven by openid_throughput.py (which builds
// and starts the server, registers a public app and logs Ada in to it once).
//
// 1. Three rounds of, one after the other:
//    - bare RS256 for 3 s: a 2048-bit RSA key signing an id_token-sized payload with jwt-kit, as
//      the server does, on as many tasks as there are cores, with the server idle;
//    - code exchanges: codes are fetched with `prompt=none` (Ada consented already), then
//      exchanged all at once by CONCURRENCY workers — each exchange checks PKCE, writes an access
//      and a refresh token and signs an RS256 id_token. Only the exchange phase is timed.
//    Medians of the rounds are reported, and the median of the rounds' ratios.
// 2. Refresh grants: each worker rotates its own refresh token family for SECONDS.
//
// The load generator shares the two cores with the server, so requests per second understate the
// server. The target compares CPU time: the server's CPU per code exchange (read from /proc for
// SERVER-PID) against this process's CPU per bare signature — an exchange should cost little more
// than its signature. Prints both rates, both CPU costs and the ratio, and where the median round's
// exchanges spent the server's CPU by kind of thread (event loops, workers, SQLite writer, readers);
// exits 1 below 70%.
//
// With --rates-only (for peer.py, which drives another OpenID Connect server with it too) it skips
// the bare signing, prints one JSON object of rates and CPU costs, and exits 0; --authorize,
// --token, --scope and --prompt name the other server's endpoints, the scope to ask for and the
// prompt to send (none: an empty one); --continue sends glewlwyd's g_continue.
//
// --writer-floor-us gives WriterFloor's figure, printed beside the SQLite writer's CPU.
//
// Usage: OpenIDThroughput BASE-URL CLIENT-ID REDIRECT-URI SESSION-COOKIE SERVER-PID [SECONDS=10] [CONCURRENCY=16]
//        [--authorize PATH] [--token PATH] [--scope SCOPE] [--prompt PROMPT] [--continue] [--rates-only]
//        [--writer-floor-us MICROSECONDS]
import AsyncHTTPClient
import Foundation

var positional: [String] = []
var options: [String: String] = [:]
var ratesOnly = false
var rest = CommandLine.arguments.dropFirst()
while let argument = rest.popFirst() {
    if argument == "--rates-only" {
        ratesOnly = true
    } else if argument == "--continue" {
        options["continue"] = ""
    } else if argument.hasPrefix("--"), let value = rest.popFirst() {
        options[String(argument.dropFirst(2))] = value
    } else {
        positional.append(argument)
    }
}
guard positional.count >= 5, let serverPID = Int32(positional[4]) else {
    FileHandle.standardError.write(
        Data(
            """
            usage: OpenIDThroughput BASE-URL CLIENT-ID REDIRECT-URI SESSION-COOKIE SERVER-PID [SECONDS=10] [CONCURRENCY=16]
                   [--authorize PATH] [--token PATH] [--scope SCOPE] [--prompt PROMPT] [--continue] [--rates-only]
                   [--writer-floor-us MICROSECONDS]

            """.utf8
        )
    )
    exit(2)
}
let seconds = positional.count > 5 ? Int(positional[5]) ?? 10 : 10
let concurrency = positional.count > 6 ? Int(positional[6]) ?? 16 : 16
/// CPU per exchange's write through SQLite alone (µs), measured by WriterFloor, shown beside the writer's.
let writerFloor = options["writer-floor-us"].flatMap(Double.init)
let target = 0.70

var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10), read: .seconds(60)))
configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency + 4)
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
var endpoint = TokenEndpoint(client: client, base: positional[0], clientID: positional[1], redirectURI: positional[2], cookie: positional[3])
endpoint.authorizePath = options["authorize"] ?? endpoint.authorizePath
endpoint.tokenPath = options["token"] ?? endpoint.tokenPath
endpoint.scope = options["scope"] ?? endpoint.scope
endpoint.prompt = options["prompt"] ?? endpoint.prompt
endpoint.continues = options["continue"] != nil
let cores = ProcessInfo.processInfo.activeProcessorCount

/// Bare signing for `seconds` on every core: signatures per second, and this process's CPU per signature.
func bareSigning(seconds: Int) async throws -> (rate: Double, cpu: Double) {
    let ownBefore = ProcessCPU.own()
    let (rate, signatures) = try await RS256Rate.measure(tasks: cores, seconds: seconds)
    return (rate, (ProcessCPU.own() - ownBefore) / Double(signatures))
}

// Each round measures bare signing just before its exchanges, so the two figures of a round see
// the machine in the same state (on a shared VM its speed drifts by several percent from one
// minute to the next); the ratio is the median of the rounds' ratios.
var signingRates: [Double] = []
var signingCPUs: [Double] = []
var exchangeRates: [Double] = []
var exchangeCPUs: [Double] = []
var exchangeThreads: [[ThreadCPU.Kind: Double]] = []
var refreshTokens: [String] = []
for round in 1...3 {
    if !ratesOnly {
        let (rate, cpu) = try await bareSigning(seconds: 3)
        signingRates.append(rate)
        signingCPUs.append(cpu)
        FileHandle.standardError.write(
            Data(
                String(
                    format: "    round %d: bare RS256 signing (2048-bit key, jwt-kit, %d tasks): %.0f per second, %.0f µs of CPU each\n",
                    round,
                    cores,
                    rate,
                    cpu * 1e6
                ).utf8
            )
        )
    }
    let codes = try await endpoint.codes(max(Int((signingRates.first ?? 0) * 2), concurrency * 100), concurrency: concurrency)
    let serverBefore = ProcessCPU.of(serverPID)
    let threadsBefore = ThreadCPU.sample(serverPID)
    let (rate, tokens) = try await endpoint.exchange(codes, concurrency: concurrency)
    let cpu = (ProcessCPU.of(serverPID) - serverBefore) / Double(codes.count)
    exchangeThreads.append(ThreadCPU.used(from: threadsBefore, to: ThreadCPU.sample(serverPID)).mapValues { $0 / Double(codes.count) })
    exchangeRates.append(rate)
    exchangeCPUs.append(cpu)
    refreshTokens = tokens
    FileHandle.standardError.write(
        Data(
            String(format: "    round %d: %d code exchanges at %.0f per second, %.0f µs of server CPU each\n", round, codes.count, rate, cpu * 1e6)
                .utf8
        )
    )
}
FileHandle.standardError.write(Data("==> refresh grants: \(concurrency) families rotating for \(seconds) s\n".utf8))
let serverBefore = ProcessCPU.of(serverPID)
let (refreshRate, refreshes) = try await endpoint.refresh(Array(refreshTokens.prefix(concurrency)), seconds: seconds)
let refreshCPU = (ProcessCPU.of(serverPID) - serverBefore) / Double(refreshes)
try await client.shutdown().get()

let exchangeRate = exchangeRates.sorted()[1]
let exchangeCPU = exchangeCPUs.sorted()[1]
if ratesOnly {
    let rates = [
        "exchanges_per_second": exchangeRate, "exchange_cpu_us": exchangeCPU * 1e6, "refreshes_per_second": refreshRate,
        "refresh_cpu_us": refreshCPU * 1e6,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: rates, options: [.sortedKeys]), as: UTF8.self))
    exit(0)
}
let ratio = zip(signingCPUs, exchangeCPUs).map { $0 / $1 }.sorted()[1]
print("")
print("Token endpoint, SQLite, \(concurrency) concurrent clients on the same \(cores) cores as the server")
print("                                                       per second    CPU each")
func row(_ label: String, _ rate: Double, _ cpu: Double, _ note: String = "") {
    print(label.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: "%12.0f %8.0f µs", rate, cpu * 1e6) + note)
}
row("bare RS256 signing, id_token floor (median of 3)", signingRates.sorted()[1], signingCPUs.sorted()[1])
row(
    "code exchange with an RS256 id_token (median of 3)",
    exchangeRate,
    exchangeCPU,
    String(format: "   signing is %.0f%% of it (CPU, median of the rounds)   target ≥ 70%% %@", ratio * 100, ratio >= target ? "✓" : "✗ MISSED")
)
row("refresh grant (rotation, new access token)", refreshRate, refreshCPU)
// Where the median round's exchanges spent the server's CPU, by kind of thread: the signature is
// the workers' share, the rest is what an exchange costs beyond it.
let medianRound = exchangeCPUs.indices.sorted { exchangeCPUs[$0] < exchangeCPUs[$1] }[1]
print("\nserver CPU per code exchange by thread (median round):")
for kind in ThreadCPU.Kind.allCases {
    let seconds = exchangeThreads[medianRound][kind] ?? 0
    let floor = kind == .writer ? writerFloor.map { String(format: "   (SQLite alone, the same statements: %.0f µs)", $0) } ?? "" : ""
    print("  " + kind.rawValue.padding(toLength: 50, withPad: " ", startingAt: 0) + String(format: "%8.0f µs", seconds * 1e6) + floor)
}
print(
    String(
        format: "  beyond the round's bare signature (%.0f µs): %.0f µs; the target needs it at most %.0f µs",
        signingCPUs[medianRound] * 1e6,
        (exchangeCPUs[medianRound] - signingCPUs[medianRound]) * 1e6,
        (signingCPUs[medianRound] / target - signingCPUs[medianRound]) * 1e6
    )
)
exit(ratio >= target ? 0 : 1)
