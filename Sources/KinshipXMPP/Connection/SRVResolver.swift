import Foundation
import NIOCore
import NIOPosix

/// Looks up SRV records over UDP with one DNS server: the one given, or the first `nameserver`
/// of `/etc/resolv.conf`. (SwiftNIO resolves addresses but not SRV records.)
public struct SRVResolver: Sendable {
    /// A DNS server's address.
    public struct Server: Sendable, Equatable {
        /// The server's host name or IP address.
        public var host: String
        /// The server's UDP port.
        public var port: Int

        /// The DNS server at `host`, port `port`.
        public init(host: String, port: Int = 53) {
            self.host = host
            self.port = port
        }

        /// The first `nameserver` of `/etc/resolv.conf`.
        public static func system(resolvConf: String = "/etc/resolv.conf") -> Server? {
            guard let text = try? String(contentsOfFile: resolvConf, encoding: .utf8) else { return nil }
            for line in text.split(whereSeparator: \.isNewline) {
                let words = line.split(whereSeparator: \.isWhitespace)
                if words.count >= 2, words[0] == "nameserver" { return Server(host: String(words[1])) }
            }
            return nil
        }
    }

    /// The DNS server asked.
    public let server: Server
    /// How long to wait for an answer.
    public let timeout: Duration

    /// A resolver that asks `server` and waits `timeout` for each answer.
    public init(server: Server, timeout: Duration = .seconds(3)) {
        self.server = server
        self.timeout = timeout
    }

    /// The records for `name` (e.g. `_xmpp-client._tcp.example.com`) in the order to try them.
    ///
    /// - Throws: ``SRVLookupError`` when the DNS server cannot be asked or its answer cannot be read.
    public func lookup(_ name: String) async throws -> [SRVRecord] {
        let id = UInt16.random(in: .min ... .max)
        let query = DNSMessage.srvQuery(id: id, name: name)
        let remote = try SocketAddress(ipAddress: server.host, port: server.port)
        let answer = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .bind(host: remote.protocol == .inet6 ? "::" : "0.0.0.0", port: 0)
            .flatMap { channel in
                let promise = channel.eventLoop.makePromise(of: [UInt8].self)
                let timer = channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) { promise.fail(SRVLookupError.timedOut) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AnswerHandler(promise: promise))
                }.flatMap {
                    channel.writeAndFlush(AddressedEnvelope(remoteAddress: remote, data: channel.allocator.buffer(bytes: query)))
                }.flatMap { promise.futureResult }.always { _ in
                    timer.cancel()
                    channel.close(promise: nil)
                }
            }.get()
        return DNSMessage.ordered(try DNSMessage.srvRecords(in: answer, id: id))
    }
}

/// Hands the first datagram to the lookup.
private final class AnswerHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    private let promise: EventLoopPromise<[UInt8]>

    init(promise: EventLoopPromise<[UInt8]>) {
        self.promise = promise
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        promise.succeed(Array(unwrapInboundIn(data).data.readableBytesView))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        promise.fail(error)
    }
}
