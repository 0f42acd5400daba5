import KinshipCore

/// Why a login failed.
public enum LoginError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another login of this manager has not finished.
    case loginInProgress
    /// Read and publish permissions were asked for in one login; ask for them separately.
    case mixedPermissionKinds(read: [Permission], publish: [Permission])
    /// The session refused the change (see ``SessionError``).
    case session(SessionError)
    /// The presenter could not show the dialog.
    case presenterFailed(String)
    /// No redirect came back within the login's time limit.
    case timedOut
    /// The redirect's `state` is not the one this login sent: it is not the answer to this login.
    case stateMismatch
    /// The redirect URL carries neither a code nor an error.
    case malformedRedirect(String)
    /// The dialog refused the request (unknown app, bad redirect URI, invalid scope, …).
    case dialogRefused(AuthorizationError)
    /// The token endpoint refused the code.
    case tokenExchangeRefused(code: String, description: String?)
    /// The platform could not be reached.
    case transport(TransportError)
    /// The platform answered something KinshipKit cannot read.
    case unexpectedResponse(status: Int, detail: String)
    /// The token could not be saved.
    case tokenCache(String)
    /// The id_token of an OpenID login failed verification; the login did not happen.
    case authenticationTokenRejected(AuthenticationTokenError)

    /// A sentence for the developer that says what to do.
    public var description: String {
        switch self {
        case .loginInProgress: "A login is already in progress; finish or cancel it first."
        case .mixedPermissionKinds(let read, let publish):
            "Ask for read permissions (\(Permission.scope(of: read))) and publish permissions (\(Permission.scope(of: publish))) in separate logins."
        case .session(let error): error.description
        case .presenterFailed(let reason): "The login dialog could not be shown: \(reason)"
        case .timedOut: "The login was not completed in time."
        case .stateMismatch: "The login answer does not belong to this login (state mismatch); it was ignored."
        case .malformedRedirect(let url): "The login answer \(url) carries neither a code nor an error."
        case .dialogRefused(let error):
            "The login dialog refused the request: \(error.code.rawValue)\(error.description.map { " (\($0))" } ?? "")."
        case .tokenExchangeRefused(let code, let description):
            "The platform refused to issue a token: \(code)\(description.map { " (\($0))" } ?? "")."
        case .transport(let error): error.description
        case .unexpectedResponse(let status, let detail): "The platform answered HTTP \(status) unexpectedly: \(detail)"
        case .tokenCache(let reason): "The token could not be saved: \(reason)"
        case .authenticationTokenRejected(let error): error.description
        }
    }
}
