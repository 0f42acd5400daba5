import HTTPTypes
import Hummingbird
import KinshipCore

/// Graph-shaped error answers: `{"error": {"message", "type", "code", "error_subcode", "fbtrace_id"}}`.
enum GraphErrorResponse {
    static func make(
        code: Int,
        subcode: Int? = nil,
        message: String,
        type: String = "OAuthException",
        userTitle: String? = nil,
        userMessage: String? = nil,
        status: HTTPResponse.Status,
        context: some RequestContext
    ) -> Response {
        let error = GraphError(
            code: code,
            subcode: subcode,
            message: message,
            type: type,
            userTitle: userTitle,
            userMessage: userMessage,
            status: status
        )
        return JSONResponse.make(
            error.body(traceID: context.id),
            status: status,
            headers: status == .unauthorized ? [.wwwAuthenticate: #"Bearer error="invalid_token""#] : [:]
        )
    }
}
