// A fixed-rate HTTP load generator that does not suffer from coordinated omission, for
// open_loop.py (issue 17, item 1).
//
// Requests are due on a clock: the i-th at START + i / RATE. Each is sent on a free keep-alive
// connection as soon as it is due; when every connection is busy it waits in line, and its latency
// still counts from when it was due, not from when it was sent — so a server that stalls shows
// the stall in every request that should have gone out meanwhile (wrk2's correction). Latencies go
// into an HdrHistogram in microseconds. The first WARMUP seconds are sent but not recorded.
//
// Prints one JSON object: the rate asked for and the rate answered before the schedule ended,
// p50/p99/p99.9/max in milliseconds, how many answers were counted, errors (anything but a 2xx),
// and requests never answered.
//
// Usage: OpenLoop URL RATE SECONDS [WARMUP=2] [CONNECTIONS=64] [HEADER: VALUE]...
import Foundation
import Histogram
import NIOCore
import NIOHTTP1
import NIOPosix

let arguments = CommandLine.arguments
guard arguments.count >= 4, let url = URL(string: arguments[1]), let host = url.host, let port = url.port,
    let rate = Double(arguments[2]), rate > 0, let seconds = Double(arguments[3]), seconds > 0
else {
    FileHandle.standardError.write(Data("usage: OpenLoop URL RATE SECONDS [WARMUP=2] [CONNECTIONS=64] [HEADER: VALUE]...\n".utf8))
    exit(2)
}
let warmup = arguments.count > 4 ? Double(arguments[4]) ?? 2 : 2
let connectionCount = arguments.count > 5 ? Int(arguments[5]) ?? 64 : 64
var headers = HTTPHeaders([("Host", "\(host):\(port)"), ("Connection", "keep-alive")])
for header in arguments.dropFirst(6) {
    guard let colon = header.firstIndex(of: ":") else { continue }
    headers.add(name: String(header[..<colon]), value: header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces))
}
let path = url.path.isEmpty ? "/" : url.path + (url.query.map { "?" + $0 } ?? "")

let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
let load = Load(
    loop: loop,
    request: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers),
    rate: rate,
    warmup: warmup,
    seconds: seconds
)
var channels: [any Channel] = []
for _ in 0..<connectionCount {
    let channel = try await ClientBootstrap(group: group)
        .channelOption(.socketOption(.tcp_nodelay), value: 1)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(AnswerHandler(load: load))
            }
        }
        .connect(host: host, port: port)
        .get()
    channels.append(channel)
}
let report = try await load.run(on: channels)
for channel in channels { try? await channel.close().get() }
try await group.shutdownGracefully()
FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
