import Hummingbird

/// Counts each request by route, method and status, and records how long it took.
///
/// Hummingbird's `MetricsMiddleware` records into the process-wide `MetricsSystem`; this one
/// records into the server's own ``ServerMetrics``, so that servers sharing a process count apart.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        try await RequestOutcome.observe({ try await next(request, context) }) { status, duration, _ in
            // Unmatched paths share one label: a scanner's guesses must not each make a series.
            metrics.request(route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: status, duration: duration)
        }
    }
}
