import CoreMetrics
import KinshipCore
import Metrics
import NIOConcurrencyHelpers
import Prometheus

/// What `kinship serve` counts, in Prometheus's registry: requests by route and status with their
/// latency, logins by outcome, tokens by grant type, Graph calls by path and error code, dialog
/// consents and the permissions declined in them, app callbacks that failed and wait, and waits
/// for a database connection.
///
/// Each server has its own registry, recorded through swift-metrics with that registry's factory
/// rather than the process-wide `MetricsSystem`: so several servers in one process (the tests)
/// count apart. The figures are served by ``MetricsEndpoint`` on a port of their own.
public final class ServerMetrics: Sendable {
    /// The registry the figures are kept in, and written out from.
    public let registry: PrometheusCollectorRegistry
    private let factory: PrometheusMetricsFactory
    private let counters = NIOLockedValueBox<[String: CoreMetrics.Counter]>([:])
    /// The series of every request and Graph call, found by a key that costs no allocation: these
    /// are recorded on every request, so their lookup is a hash of what is already there.
    private let requestSeries = NIOLockedValueBox<[RequestKey: RequestSeries]>([:])
    private let graphSeries = NIOLockedValueBox<[GraphKey: CoreMetrics.Counter]>([:])
    /// The last totals read from sources that keep their own (the database's pool waits).
    private let lastTotals = NIOLockedValueBox<[String: Int]>([:])

    /// How a password typed at a login form ended.
    enum LoginOutcome: String, Sendable {
        case ok
        case wrongPassword = "wrong_password"
        case throttled
        /// The password was right, but the account is suspended.
        case suspended
    }

    public init() {
        registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500),
            .seconds(5),
        ]
        self.factory = factory
    }

    /// One HTTP request answered: `route` is the router's pattern (`/oauth/access_token`,
    /// `/pictures/{userID}`), never the path a client sent, so the labels stay few.
    func request(route: String, method: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, method: method, status: status)
        let series = requestSeries.withLockedValue { all in
            if let series = all[key] { return series }
            let series = RequestSeries(
                count: CoreMetrics.Counter(
                    label: "kinship_http_requests_total",
                    dimensions: [("route", route), ("method", method), ("status", String(status))],
                    factory: factory
                ),
                duration: CoreMetrics.Timer(
                    label: "kinship_http_request_duration_seconds",
                    dimensions: [("route", route), ("method", method)],
                    factory: factory
                )
            )
            all[key] = series
            return series
        }
        series.count.increment()
        series.duration.record(duration: duration)
    }

    /// A password typed at a login form (the dialog's or the account pages').
    func login(_ outcome: LoginOutcome) {
        counter("kinship_logins_total", [("outcome", outcome.rawValue)]).increment()
    }

    /// Tokens handed out at the token endpoint.
    func tokensIssued(grantType: String) {
        counter("kinship_tokens_issued_total", [("grant_type", grantType)]).increment()
    }

    /// A Graph call answered; `errorCode` is the Graph error's `code`, `nil` for a success.
    func graphCall(path: String, errorCode: Int?) {
        let key = GraphKey(path: path, errorCode: errorCode)
        graphSeries.withLockedValue { all in
            if let counter = all[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "kinship_graph_calls_total",
                dimensions: [("path", path), ("error_code", errorCode.map(String.init) ?? "none")],
                factory: factory
            )
            all[key] = counter
            return counter
        }.increment()
    }

    /// A person answered the dialog's consent page, declining `declined`.
    func consent(declined: some Sequence<Permission>) {
        counter("kinship_dialog_consents_total", []).increment()
        for permission in declined {
            counter("kinship_dialog_declined_permissions_total", [("permission", permission.rawValue)]).increment()
        }
    }

    /// An app callback delivery that did not reach the app.
    func callbackFailed(kind: String) {
        counter("kinship_callback_failed_deliveries_total", [("kind", kind)]).increment()
    }

    /// Reads what is kept elsewhere into the registry, before it is written out: the callbacks
    /// waiting in the outbox (kept at its last value while the database does not answer, which
    /// `/readyz` reports) and the database's pool waits.
    func collect(from platform: Platform) async {
        if let depth = try? await platform.callbacks.waitingCount() {
            CoreMetrics.Gauge(label: "kinship_callback_outbox_depth", dimensions: [], factory: factory).record(depth)
        }
        for (pool, total) in platform.database.poolWaits() {
            let name = "kinship_database_pool_waits_total"
            let increase = lastTotals.withLockedValue { last in
                defer { last[pool] = total }
                return total - (last[pool] ?? 0)
            }
            counter(name, [("pool", pool)]).increment(by: max(0, increase))
        }
    }

    /// Everything counted, in Prometheus's text format.
    func exposition() -> [UInt8] {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return buffer
    }

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct RequestSeries {
        let count: CoreMetrics.Counter
        let duration: CoreMetrics.Timer
    }

    private struct GraphKey: Hashable {
        let path: String
        let errorCode: Int?
    }

    private func counter(_ name: String, _ dimensions: [(String, String)]) -> CoreMetrics.Counter {
        let key = name + Self.key(dimensions)
        return counters.withLockedValue { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(label: name, dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
    }

    private static func key(_ dimensions: [(String, String)]) -> String {
        dimensions.map { "\u{1F}" + $0.0 + "=" + $0.1 }.joined()
    }
}
