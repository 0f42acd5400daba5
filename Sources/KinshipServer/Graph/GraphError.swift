import HTTPTypes
import KinshipCore

/// A Graph API error: what the app is told in `{"error": {…}}`, with the HTTP status that goes with it.
struct GraphError: Error, Sendable {
    let code: Int
    let subcode: Int?
    let message: String
    let type: String
    let userTitle: String?
    let userMessage: String?
    let status: HTTPResponse.Status

    init(
        code: Int,
        subcode: Int? = nil,
        message: String,
        type: String = "OAuthException",
        userTitle: String? = nil,
        userMessage: String? = nil,
        status: HTTPResponse.Status = .badRequest
    ) {
        self.code = code
        self.subcode = subcode
        self.message = message
        self.type = type
        self.userTitle = userTitle
        self.userMessage = userMessage
        self.status = status
    }

    func body(traceID: String) -> GraphErrorBody {
        GraphErrorBody(
            .init(
                message: message,
                type: type,
                code: code,
                errorSubcode: subcode,
                errorUserTitle: userTitle,
                errorUserMsg: userMessage,
                fbtraceID: traceID
            )
        )
    }

    /// The token is missing, invalid, expired or revoked (`190`).
    static func invalidToken(subcode: Int?, message: String) -> GraphError {
        let userMessage: String? =
            switch subcode {
            case GraphErrorCode.subcodeExpired: "Your session has expired. Please log in again."
            case GraphErrorCode.subcodeAppNotAuthorized: "You removed this app's access. Log in again to use it."
            case GraphErrorCode.subcodePasswordChanged: "Your password changed, so please log in again."
            case GraphErrorCode.subcodeSuspended: "Your Kinship account is suspended."
            default: nil
            }
        return GraphError(
            code: GraphErrorCode.invalidToken,
            subcode: subcode,
            message: message,
            userTitle: userMessage == nil ? nil : "Please log in again",
            userMessage: userMessage,
            status: .unauthorized
        )
    }

    static let noToken = GraphError(
        code: GraphErrorCode.invalidToken,
        subcode: nil,
        message: "An active access token must be used to query information about the current user.",
        status: .unauthorized
    )

    /// A call only a person's token can make came with an app access token (`2500`, as Graph answers
    /// `/me` asked for by an app).
    static func userTokenRequired(for what: String) -> GraphError {
        GraphError(
            code: GraphErrorCode.userTokenRequired,
            message: "An active access token must be used to query information about the current user. "
                + "\(what) needs a person's access token; an app access token speaks for no one.",
            status: .badRequest
        )
    }

    /// The app token is not one the platform gives (wrong app, wrong secret, or the secret changed).
    static let invalidAppToken = GraphError(
        code: GraphErrorCode.invalidToken,
        subcode: GraphErrorCode.subcodeInvalidToken,
        message: "Invalid OAuth access token signature: the app access token is not valid (was the app's secret changed?).",
        status: .unauthorized
    )

    /// A permission the call needs is not granted (`200` range).
    static func missingPermission(_ permission: Permission, for what: String) -> GraphError {
        GraphError(
            code: GraphErrorCode.permissionError,
            message: "(#200) \(what) requires the \(permission.rawValue) permission, which this app has not been granted.",
            userTitle: "Permission needed",
            userMessage: "This app needs the \(permission.rawValue) permission for that. You can grant it by logging in again.",
            status: .forbidden
        )
    }

    /// A parameter is invalid (`100`).
    static func invalidParameter(_ message: String) -> GraphError {
        GraphError(code: GraphErrorCode.invalidParameter, message: "(#100) \(message)", type: "GraphMethodException")
    }

    /// The object does not exist or is not visible to the caller (`803`).
    static func unknownObject(_ id: String) -> GraphError {
        GraphError(
            code: GraphErrorCode.unknownObject,
            message: "(#803) Some of the aliases you requested do not exist: \(id)",
            type: "GraphMethodException",
            status: .notFound
        )
    }

    /// No such path (`100`, as Graph answers unknown edges).
    static func unknownPath(_ path: String) -> GraphError {
        GraphError(
            code: GraphErrorCode.invalidParameter,
            message: "(#100) Unknown path components: \(path)",
            type: "GraphMethodException",
            status: .notFound
        )
    }
}
