import Hummingbird
import NIOCore

/// The per-request context of every Kinship route: Hummingbird's core storage plus the peer's
/// address, which login rate limits count by.
public struct KinshipRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    /// The client's IP address as text, for rate limits and logs: the peer's, or behind a
    /// trusted proxy the one it forwarded (set by ``ClientAddressMiddleware``).
    var clientAddress: String

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.clientAddress = remoteAddress?.ipAddress ?? "unknown"
    }

    /// No Kinship endpoint takes a large body; bigger uploads are refused with 413.
    public var maxUploadSize: Int { 64 * 1024 }
}
