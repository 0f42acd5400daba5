import Hummingbird

/// How a request ended, as the client sees it, for the middleware that log and count requests.
enum RequestOutcome {
    /// Runs `next` and tells `report` the status the client gets — the response's, an
    /// `HTTPResponseError`'s, or 500 for any other error (passed along) — and how long it took.
    static func observe(
        _ next: () async throws -> Response,
        report: (_ status: Int, _ duration: Duration, _ unexpected: (any Error)?) -> Void
    ) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next()
            report(response.status.code, ContinuousClock.now - start, nil)
            return response
        } catch let error as any HTTPResponseError {
            report(error.status.code, ContinuousClock.now - start, nil)
            throw error
        } catch {
            report(500, ContinuousClock.now - start, error)
            throw error
        }
    }
}
