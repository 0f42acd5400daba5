import Foundation
import KinshipCore

/// A Graph API call that failed, sorted into a ``Category`` that says what to do about it.
public struct GraphError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is, and so how to recover.
    public enum Category: String, Sendable, CaseIterable {
        /// Worth retrying after a pause: the network, a timeout, a server error.
        case transient
        /// The token no longer works (expired, revoked, password changed): close the session and
        /// log in again.
        case recoverable
        /// A permission is missing or was revoked: offer to ask for it, then retry.
        case permission
        /// Too many calls: slow down.
        case throttled
        /// Anything else: a bad parameter, an unknown object; retrying will not help.
        case other
    }

    /// What the app should do about the error.
    public var category: Category
    /// The Graph error code, when the platform answered with one.
    public var code: Int?
    /// The subcode that says more, such as `GraphErrorCode.subcodeExpired`.
    public var subcode: Int?
    /// The HTTP status, when there was an answer.
    public var httpStatus: Int?
    /// The message for developers.
    public var message: String
    /// A title to show the person.
    public var userTitle: String
    /// A sentence to show the person.
    public var userMessage: String
    /// Whether to show ``userTitle`` and ``userMessage``: the person has to act (log in again,
    /// grant a permission) or the platform wrote a message for them.
    public var shouldNotifyUser: Bool
    /// For permission errors: the permission to ask for, when known.
    public var missingPermission: Permission?
    /// The platform's trace id, for its logs.
    public var traceID: String?

    /// The message, with the code and subcode when there are any.
    public var description: String {
        let codes = code.map { " (code \($0)\(subcode.map { "/\($0)" } ?? ""))" } ?? ""
        return "\(message)\(codes)"
    }

    /// The error for a Graph error answer to `request`.
    init(status: Int, body: GraphErrorBody.Detail, request: GraphRequest?) {
        let category = Self.category(code: body.code, status: status)
        self.category = category
        self.code = body.code
        self.subcode = body.errorSubcode
        self.httpStatus = status
        self.message = body.message
        self.userTitle = body.errorUserTitle ?? Self.defaultTitle(category)
        self.userMessage = body.errorUserMsg ?? Self.defaultMessage(category)
        self.shouldNotifyUser = body.errorUserMsg != nil || category == .recoverable || category == .permission
        self.traceID = body.fbtraceID
        self.missingPermission = category == .permission ? Self.permission(named: body.message, request: request) : nil
    }

    /// The error for a call that got no Graph answer.
    init(category: Category, message: String, httpStatus: Int? = nil) {
        self.category = category
        self.httpStatus = httpStatus
        self.message = message
        self.userTitle = Self.defaultTitle(category)
        self.userMessage = Self.defaultMessage(category)
        self.shouldNotifyUser = category == .recoverable
    }

    /// No response came: the network or a timeout (transient), or the caller cancelled (other).
    static func transport(_ error: TransportError) -> GraphError {
        GraphError(category: error == .cancelled ? .other : .transient, message: error.description)
    }

    /// There is no token to call with: the person has to log in.
    static let notLoggedIn = GraphError(category: .recoverable, message: "Nobody is logged in: open a session first.")

    /// The platform refused to renew the login, for `reason` (its words): the person has to log in again.
    static func loginEnded(_ reason: String) -> GraphError {
        var error = GraphError(category: .recoverable, message: "The login has ended: \(reason)")
        error.userMessage = reason
        return error
    }

    /// The category of a Graph error code, as the platform's documentation sorts them.
    static func category(code: Int, status: Int) -> Category {
        switch code {
        case GraphErrorCode.invalidToken, 102: .recoverable
        case GraphErrorCode.permissionDenied, 200...299: .permission
        case GraphErrorCode.appRateLimited, GraphErrorCode.userRateLimited, 32, 341, 613: .throttled
        case GraphErrorCode.unknown, GraphErrorCode.serviceUnavailable: .transient
        default: category(status: status)
        }
    }

    /// The category of an HTTP status alone: throttled for 429, transient for 5xx.
    static func category(status: Int) -> Category {
        status == 429 ? .throttled : status >= 500 ? .transient : .other
    }

    /// The permission a request needs that the error is about: named in the message
    /// ("requires the user_friends permission"), or else the request's first required one.
    private static func permission(named message: String, request: GraphRequest?) -> Permission? {
        if let match = message.firstMatch(of: /requires the ([a-z_]+) permission/) { return Permission(String(match.1)) }
        return request?.requiredPermissions.first
    }

    private static func defaultTitle(_ category: Category) -> String {
        switch category {
        case .transient: "Connection problem"
        case .recoverable: "Please log in again"
        case .permission: "Permission needed"
        case .throttled: "Too many requests"
        case .other: "Something went wrong"
        }
    }

    private static func defaultMessage(_ category: Category) -> String {
        switch category {
        case .transient: "The server could not be reached. Please try again."
        case .recoverable: "Your login is no longer valid. Log in again to continue."
        case .permission: "This app needs your permission for that."
        case .throttled: "Too many requests were made. Wait a moment and try again."
        case .other: "The request could not be completed."
        }
    }
}
