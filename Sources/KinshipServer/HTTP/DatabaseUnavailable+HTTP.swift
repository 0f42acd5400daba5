import HTTPTypes
import Hummingbird
import Logging
import NIOCore

extension DatabaseUnavailable: HTTPResponseError {
    public var status: HTTPResponse.Status { .serviceUnavailable }

    /// `503` with `Retry-After`: a short page for browsers, an OAuth-style JSON error for the rest.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        context.logger.warning("Answered 503: the database is unavailable", metadata: ["reason": "\(reason)"])
        var headers: HTTPFields = [.retryAfter: String(retryAfter)]
        if request.headers[.accept]?.contains("text/html") == true {
            headers[.contentType] = "text/html; charset=utf-8"
            let page = """
                <!doctype html><html lang="en"><head><meta charset="utf-8"><title>Try again in a moment</title>\
                <link rel="stylesheet" href="/assets/kinship.css"></head><body><main><h1>Try again in a moment</h1>\
                <p>Kinship cannot reach its database just now. Nothing was changed; reload this page in a few seconds.</p>\
                </main></body></html>
                """
            return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        return JSONResponse.make(
            ["error": "temporarily_unavailable", "error_description": "The service is briefly unavailable; try again in \(retryAfter) seconds."],
            status: status,
            headers: headers
        )
    }
}
