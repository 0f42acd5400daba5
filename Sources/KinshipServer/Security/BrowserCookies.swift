import Foundation
import Hummingbird

/// The platform's two cookies, shared by the login dialog and the account pages: the browser
/// session (who is logged in) and the pre-login CSRF secret the login and sign-up forms are bound
/// to. Both are HttpOnly and SameSite=Lax; Secure when the platform is served over https.
struct BrowserCookies: Sendable {
    static let session = "kinship_session"
    static let loginCSRF = "kinship_csrf"

    let secure: Bool
    let sessionLifetime: Int

    func session(_ value: String) -> Cookie {
        Cookie(name: Self.session, value: value, maxAge: sessionLifetime, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func expiredSession() -> Cookie {
        Cookie(name: Self.session, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func loginCSRF(_ value: String) -> Cookie {
        Cookie(name: Self.loginCSRF, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }
}

extension CSRFProtection {
    /// The token for a form shown before anyone is logged in (log in, sign up), bound to the
    /// browser's pre-login secret; the cookie to set when the browser has no secret yet.
    func preLoginToken(for request: Request, cookies: BrowserCookies) -> (token: String, cookie: Cookie?) {
        if let secret = request.cookies[BrowserCookies.loginCSRF]?.value {
            return (token(boundTo: "login:" + secret), nil)
        }
        let secret = Secrets.generate(byteCount: 24)
        return (token(boundTo: "login:" + secret), cookies.loginCSRF(secret))
    }

    /// Whether a pre-login form's token matches the browser's pre-login secret.
    func verifyPreLogin(_ submitted: String?, for request: Request) -> Bool {
        verify(submitted, boundTo: request.cookies[BrowserCookies.loginCSRF].map { "login:" + $0.value })
    }

    /// The token for a logged-in person's forms, bound to their session cookie.
    func token(forSession session: String) -> String {
        token(boundTo: "session:" + session)
    }

    /// Whether a logged-in person's form carries their session's token.
    func verify(_ submitted: String?, forSession session: String) -> Bool {
        verify(submitted, boundTo: "session:" + session)
    }
}
