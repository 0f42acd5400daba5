import Foundation
import Hummingbird

/// The dialog's two cookies: the browser session (who is logged in) and the pre-login CSRF secret.
/// Both are HttpOnly and SameSite=Lax; Secure when the platform is served over https.
struct DialogCookies: Sendable {
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
        Cookie(name: Self.loginCSRF, value: value, path: "/dialog", secure: secure, httpOnly: true, sameSite: .lax)
    }
}
