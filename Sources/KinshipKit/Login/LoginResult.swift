import KinshipCore

/// How a login ended, when it did not fail.
public enum LoginResult: Sendable, Equatable {
    /// The person logged in; the session is open with the new token.
    case success(LoginSuccess)
    /// The person pressed Cancel, or the app cancelled the login.
    case cancelled

    /// The token, when the login succeeded.
    public var token: AccessToken? {
        if case .success(let success) = self { success.token } else { nil }
    }
}

/// A finished login: the token, and what happened to the permissions this login asked for.
public struct LoginSuccess: Sendable, Equatable {
    /// The session's new token.
    public var token: AccessToken
    /// The asked-for permissions the person granted.
    public var grantedPermissions: Set<Permission>
    /// The asked-for permissions the person declined (unticked on the consent page).
    public var declinedPermissions: Set<Permission>
    /// The verified id_token, when the login asked for `Permission.openID`.
    public var authenticationToken: AuthenticationToken?

    /// A login result from its parts.
    public init(
        token: AccessToken,
        grantedPermissions: Set<Permission>,
        declinedPermissions: Set<Permission>,
        authenticationToken: AuthenticationToken? = nil
    ) {
        self.token = token
        self.grantedPermissions = grantedPermissions
        self.declinedPermissions = declinedPermissions
        self.authenticationToken = authenticationToken
    }
}
