import Hummingbird
import Logging
import NIOCore

/// `GET /healthz` (the process is up) and `GET /readyz` (the database answers), for load
/// balancers and orchestrators.
struct HealthController: Sendable {
    let platform: Platform

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/healthz") { _, _ in "ok" }
        router.get("/readyz") { _, context in await readiness(context) }
    }

    /// 200 while the database answers; 503 with `Retry-After` while it does not — on PostgreSQL
    /// from a lost connection until it is back — so traffic goes to processes that can serve it.
    private func readiness(_ context: KinshipRequestContext) async -> Response {
        do {
            try await platform.database.ping()
            return Self.text(.ok, "ready")
        } catch {
            context.logger.warning("Not ready: the database does not answer", metadata: ["error": "\(error)"])
            var response = Self.text(.serviceUnavailable, "not ready: the database does not answer; check that it is running and reachable")
            response.headers[.retryAfter] = "5"
            return response
        }
    }

    private static func text(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
