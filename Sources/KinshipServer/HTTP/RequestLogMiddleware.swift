import Hummingbird
import Logging
import NIOCore

/// Logs one line per request: method, path, status and duration — never the query string, which
/// can carry tokens (`?access_token=`, `?input_token=`) and client secrets.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, context, status: response.status.code, since: start)
            return response
        } catch let error as any HTTPResponseError {
            log(request, context, status: error.status.code, since: start)
            throw error
        } catch {
            context.logger.error(
                "Request failed", metadata: ["method": "\(request.method)", "path": "\(request.uri.path)", "error": "\(error)"])
            throw error
        }
    }

    private func log(_ request: Request, _ context: Context, status: Int, since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        context.logger.log(
            level: status >= 500 ? .error : .info,
            "\(request.method) \(request.uri.path) → \(status)",
            metadata: ["duration_ms": "\((milliseconds * 10).rounded() / 10)"])
    }
}
