import NIOCore

/// What the connection's channel reports to the ``XMPPConnection``.
enum StreamEvent: Sendable {
    case opened(XMLElement)
    case element(XMLElement)
    case closed
    case failed(any Error)
    /// A negotiation step's time ran out (the step's number).
    case timedOut(Int)
}

/// Turns the bytes the server sends into ``StreamEvent``s, through an ``XMLStreamParser`` that
/// starts afresh at each stream restart (after STARTTLS and SASL).
final class StreamEventHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private var parser = XMLStreamParser()
    private let events: AsyncStream<StreamEvent>.Continuation

    init(events: AsyncStream<StreamEvent>.Continuation) {
        self.events = events
    }

    /// Forgets the old stream; called before the client opens a new one.
    func restart() {
        parser = XMLStreamParser()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        do {
            let parsed = try buffer.withUnsafeReadableBytes { bytes throws(XMLStreamError) in try parser.feed(bytes) }
            for event in parsed {
                switch event {
                case .streamOpened(let header): events.yield(.opened(header))
                case .stanza(let element): events.yield(.element(element))
                case .streamClosed: events.yield(.closed)
                }
            }
        } catch {
            events.yield(.failed(error))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        events.yield(.failed(error))
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        events.yield(.closed)
        events.finish()
        context.fireChannelInactive()
    }
}
