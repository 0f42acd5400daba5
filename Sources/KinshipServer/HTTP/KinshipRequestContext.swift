import Hummingbird
import NIOCore

/// The per-request context of every Kinship route: Hummingbird's core storage plus the peer's
/// address, which login rate limits count by.
public struct KinshipRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }

    /// No Kinship endpoint takes a large body; bigger uploads are refused with 413.
    public var maxUploadSize: Int { 64 * 1024 }

    /// The peer's IP address as text, for rate limits and logs.
    var clientAddress: String {
        remoteAddress?.ipAddress ?? "unknown"
    }
}
