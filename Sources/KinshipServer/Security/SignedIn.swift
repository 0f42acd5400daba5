import Hummingbird

/// The person a browser is logged in as, with the session cookie their forms are bound to: what
/// the login dialog and the account pages both read from a request.
struct SignedIn: Sendable {
    let user: UserRecord
    let session: String
    /// When the person typed their password for this session (Unix seconds).
    let authenticatedAt: Int

    /// The logged-in person behind the request's session cookie, if the session is current.
    static func find(in request: Request, platform: Platform) async throws -> SignedIn? {
        guard let session = request.cookies[BrowserCookies.session]?.value,
            let found = try await platform.browserSessions.find(cookie: session),
            let user = try await platform.users.find(id: found.userID), user.suspendedAt == nil
        else { return nil }
        return SignedIn(user: user, session: session, authenticatedAt: found.createdAt)
    }
}
