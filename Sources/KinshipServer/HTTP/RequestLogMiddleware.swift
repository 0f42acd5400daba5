import Hummingbird
import Logging
import NIOCore

/// Logs one line per request: method, path, status and duration — never the query string, which
/// can carry tokens (`?access_token=`, `?input_token=`) and client secrets.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        try await RequestOutcome.observe({ try await next(request, context) }) { status, duration, unexpected in
            if let unexpected {
                context.logger.error(
                    "Request failed",
                    metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(unexpected)"]
                )
                return
            }
            let milliseconds = Double(duration.components.attoseconds) / 1e15 + Double(duration.components.seconds) * 1000
            context.logger.log(
                level: status >= 500 ? .error : .info,
                "\(request.method) \(request.uri.path) → \(status)",
                metadata: ["duration_ms": "\((milliseconds * 10).rounded() / 10)"]
            )
        }
    }
}
