import HTTPTypes
import Hummingbird
import KinshipCore

/// What the account pages share: who is logged in, their forms' CSRF tokens, the page chrome, and
/// the answers every route gives the same way (log in first, form expired, bad form).
struct AccountPages: Sendable {
    let platform: Platform
    let configuration: ServerConfiguration
    let pages: PageRenderer
    let csrf: CSRFProtection
    let cookies: BrowserCookies

    /// The logged-in person, if any.
    func signedIn(_ request: Request) async throws -> SignedIn? {
        try await SignedIn.find(in: request, platform: platform)
    }

    /// The logged-in person; anyone else is sent to log in and brought back here afterwards (to
    /// the same path and query: `/device?user_code=…` keeps its code).
    func requireSignedIn(_ request: Request) async throws -> SignedIn {
        if let person = try await signedIn(request) { return person }
        let here = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        throw EarlyAnswer(response: Self.redirect(to: "/login?next=" + FormParameters.encode(here)))
    }

    /// A logged-in person's form, read and its CSRF token checked.
    func readForm(_ request: Request, of person: SignedIn) async throws -> FormParameters {
        let form = try await readForm(request)
        guard csrf.verify(form["csrf_token"], forSession: person.session) else {
            throw EarlyAnswer(response: formExpired())
        }
        return form
    }

    /// A form body, bounded in size.
    func readForm(_ request: Request) async throws -> FormParameters {
        try await pages.readForm(request, limit: configuration.maxFormBytes)
    }

    func formExpired() -> Response {
        pages.error(
            status: .forbidden,
            heading: "This form expired",
            message: "The form could not be verified, so nothing was changed.",
            detail: "Go back, reload the page and try again."
        )
    }

    /// An account page: the navigation, the person's name, a notice, and the CSRF token for its forms.
    func page(
        _ template: String,
        title: String,
        section: String,
        person: SignedIn,
        values: [String: Any],
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var values = values
        values["title"] = title
        values["wide"] = true
        values["account"] =
            [
                "name": person.user.name, "isProfile": section == "profile", "isFriends": section == "friends", "isApps": section == "apps",
                "isSecurity": section == "security", "isDevelopers": section == "developers", "isAdminPage": section == "admin",
                "isAdmin": person.user.isAdmin,
            ] as [String: Any]
        values["csrfToken"] = csrf.token(forSession: person.session)
        if let notice { values["notice"] = notice }
        return pages.page(template, values, status: status)
    }

    /// A page whose form is posted before anyone is logged in: its CSRF token is bound to the
    /// browser's pre-login secret, set as a cookie when the browser has none yet.
    func preLoginPage(
        _ template: String,
        _ request: Request,
        message: String?,
        status: HTTPResponse.Status,
        values: [String: Any]
    ) -> Response {
        let (token, newCookie) = csrf.preLoginToken(for: request, cookies: cookies)
        var values = values
        values["csrfToken"] = token
        if let message { values["message"] = message }
        var response = pages.page(template, values, status: status)
        if let newCookie { response.setCookie(newCookie) }
        return response
    }

    /// A 303 to a page on this site.
    static func redirect(to path: String) -> Response {
        Response(status: .seeOther, headers: [.location: path])
    }

    /// A `next=` target that stays on this site: a path that every URL parser reads as a path on
    /// this origin, or `fallback`.
    ///
    /// Browsers parse a `Location` the WHATWG way: they drop tabs and newlines anywhere, strip
    /// leading control characters and spaces, and read `\\` as `/`. So `/\t/evil.com` becomes
    /// `//evil.com`, another site. Anything with a control character, a space at the start, or a
    /// backslash is refused outright, and what remains must start with exactly one `/`.
    static func localPath(_ next: String?, default fallback: String = "/account") -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"),
            !next.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" })
        else { return fallback }
        return next
    }
}
