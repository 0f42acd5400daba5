/// Whatever holds the current token: a ``Session``, or a ``LoginManager`` (which follows its
/// session as it is replaced, and renews the token before it expires).
public protocol AccessTokenProvider: Sendable {
    /// The token held now, or `nil` when nobody is logged in.
    func currentAccessToken() async -> AccessToken?

    /// The token to make a call with now. A provider that can renew tokens does it here when the
    /// token is about to expire; throws the ``GraphError`` that ends the call otherwise (nobody
    /// logged in, the login ended).
    func accessTokenForCall() async throws(GraphError) -> AccessToken
}

extension AccessTokenProvider {
    /// The current token as it is; ``GraphError`` "not logged in" without one.
    ///
    /// - Throws: ``GraphError`` when nobody is logged in, or the platform ended the login.
    ///
    /// - Throws: ``GraphError`` when the session holds no token.
    public func accessTokenForCall() async throws(GraphError) -> AccessToken {
        guard let token = await currentAccessToken() else { throw .notLoggedIn }
        return token
    }
}

extension Session: AccessTokenProvider {
    /// The session's token, whether or not it has expired.
    public func currentAccessToken() -> AccessToken? { accessToken }
}

extension LoginManager: AccessTokenProvider {
    /// The current session's token, whether or not it has expired.
    public func currentAccessToken() async -> AccessToken? { await session.accessToken }
}
