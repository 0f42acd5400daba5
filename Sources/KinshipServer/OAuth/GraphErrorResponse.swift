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
        JSONResponse.make(
            GraphErrorBody(
                .init(
                    message: message,
                    type: type,
                    code: code,
                    errorSubcode: subcode,
                    errorUserTitle: userTitle,
                    errorUserMsg: userMessage,
                    fbtraceID: context.id
                )
            ),
            status: status,
            headers: status == .unauthorized ? [.wwwAuthenticate: #"Bearer error="invalid_token""#] : [:]
        )
    }
}
