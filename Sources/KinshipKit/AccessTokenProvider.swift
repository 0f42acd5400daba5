/// Whatever holds the current token: a ``Session``, or a ``LoginManager`` (which follows its
/// session as it is replaced).
public protocol AccessTokenProvider: Sendable {
    /// The token to call the platform with, or `nil` when nobody is logged in.
    func currentAccessToken() async -> AccessToken?
}

extension Session: AccessTokenProvider {
    public func currentAccessToken() -> AccessToken? { accessToken }
}

extension LoginManager: AccessTokenProvider {
    public func currentAccessToken() async -> AccessToken? { await session.accessToken }
}
