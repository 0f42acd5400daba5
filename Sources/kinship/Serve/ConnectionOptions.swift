import ArgumentParser

/// `kinship serve`'s connections, proxies, metrics listener and callback delivery. Each is also
/// `KINSHIP_…` in the environment and a key of the config file.
struct ConnectionOptions: ParsableArguments {
    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may wait without a complete request before it is closed (default: 15).")
    var idleTimeout: Int?
    @Option(name: .customLong("max-connections"), help: "The most connections held open at once; more are closed at once (default: 10000).")
    var maxConnections: Int?
    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A reverse proxy (an address or a CIDR range) whose Forwarded / X-Forwarded-For header names the client; repeat for several.",
            discussion: "Every per-address limit then counts by the address the proxy saw. Without it those headers are ignored. "
                + "In the environment or the file: a comma-separated list.",
            valueName: "cidr"
        )
    )
    var trustedProxies: [String] = []
    @Option(
        name: .customLong("metrics-port"),
        help: ArgumentHelp(
            "Serve Prometheus metrics at /metrics on this port (0 picks a free one); off when not given.",
            discussion: "A listener of its own, apart from --port, so the figures are never public by accident."
        )
    )
    var metricsPort: Int?
    @Option(name: .customLong("metrics-host"), help: "The address the metrics listener binds to (default: 127.0.0.1).")
    var metricsHost: String?
    @Option(name: .customLong("callback-poll-interval"), help: "Seconds between looks at an empty callback outbox (default: 1).")
    var callbackPollInterval: Double?
    @Option(name: .customLong("callback-timeout"), help: "Seconds an app's server has to answer a callback (default: 10).")
    var callbackTimeout: Int?
    @Option(name: .customLong("callback-batch-size"), help: "The most callbacks one process delivers at once (default: 8).")
    var callbackBatchSize: Int?
}
