import Atomics
import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// The number of connections the server holds open, shared by every connection's
/// ``ConnectionLimitHandler``.
final class OpenConnections: Sendable {
    let limit: Int
    private let count = ManagedAtomic(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a new connection; `false` (and not counted) when the limit is reached.
    func admit() -> Bool {
        if count.loadThenWrappingIncrement(ordering: .relaxed) < limit { return true }
        count.wrappingDecrement(ordering: .relaxed)
        return false
    }

    func release() {
        count.wrappingDecrement(ordering: .relaxed)
    }

    var current: Int { count.load(ordering: .relaxed) }
}

/// Closes a new connection at once when the server already holds its most, so that clients that
/// open connections and never finish a request cannot use up the process's open files. Slow
/// clients are closed by the idle timeout; this bounds how many there can be meanwhile.
final class ConnectionLimitHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let connections: OpenConnections
    private var isCounted = false

    init(connections: OpenConnections) {
        self.connections = connections
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if !isCounted { admit(context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        release()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard !isCounted else { return }
        if connections.admit() {
            isCounted = true
        } else {
            context.close(promise: nil)
        }
    }

    private func release() {
        guard isCounted else { return }
        isCounted = false
        connections.release()
    }
}

@available(*, unavailable)
extension ConnectionLimitHandler: Sendable {}
