import Hummingbird
import Logging
import NIOCore

/// The listener Prometheus scrapes: `GET /metrics` (and `/healthz`) on a host and port of their
/// own — loopback unless the operator says otherwise — so the figures are never served on the
/// public port by accident.
enum MetricsEndpoint {
    /// The application serving `metrics` on `host:port`, run beside the main server as one of its services.
    static func make(metrics: ServerMetrics, platform: Platform, host: String, port: Int, logger: Logger) -> some ApplicationProtocol {
        let router = Router()
        router.get("/metrics") { _, _ in
            await metrics.collect(from: platform)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
        router.get("/healthz") { _, _ in "ok" }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "Kinship metrics"),
            onServerRunning: { channel in
                logger.info("Metrics for Prometheus", metadata: ["url": "http://\(host):\(channel.localAddress?.port ?? port)/metrics"])
            },
            logger: logger
        )
    }
}
