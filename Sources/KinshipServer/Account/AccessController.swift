import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// Joining and leaving: `/signup`, `/login`, `/logout`. Logging in here logs the browser in to the
/// dialog too (one session cookie), so an app's login then goes straight to consent.
struct AccessController: Sendable {
    let account: AccountPages
    let passwordLogin: PasswordLogin

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/signup") { request, _ in try await showSignup(request) }
        router.post("/signup") { request, context in try await signUp(request, context) }
        router.get("/login") { request, _ in try await showLogin(request) }
        router.post("/login") { request, context in try await logIn(request, context) }
        router.post("/logout") { request, context in try await logOut(request, context) }
    }

    /// `GET /` in a browser (Graph's `GET /?ids=` shares the path; ``GraphController`` tells them
    /// apart): the account, or the login page.
    func home(_ request: Request) async throws -> Response {
        AccountPages.redirect(to: try await account.signedIn(request) == nil ? "/login" : "/account")
    }

    // MARK: - Sign up

    private func showSignup(_ request: Request) async throws -> Response {
        if try await account.signedIn(request) != nil { return AccountPages.redirect(to: "/account") }
        return signupPage(request, name: "", email: "", message: nil, status: .ok)
    }

    private func signUp(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await account.readForm(request)
        let name = String((form["name"] ?? "").prefix(200))
        let email = String((form["email"] ?? "").prefix(254))
        guard account.csrf.verifyPreLogin(form["csrf_token"], for: request) else {
            return signupPage(request, name: name, email: email, message: "This form expired. Please try again.", status: .forbidden)
        }
        // Counted before anything is checked, so parallel sign-ups from one address get no more than the limit.
        let address = context.clientAddress
        if let retryAfter = try await account.platform.rateLimits.hit(
            "signup:" + address,
            limit: account.configuration.signupsPerAddressPerMinute,
            windowSeconds: 60
        ) {
            context.logger.notice("Sign-up refused: too many from one address", metadata: ["signup.address": "\(address)"])
            var response = signupPage(
                request,
                name: name,
                email: email,
                message: "Too many sign-ups from your network just now. Try again in a minute.",
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        let password = form["password"] ?? ""
        guard password == form["password_again"] else {
            return signupPage(request, name: name, email: email, message: "The two passwords are not the same.", status: .badRequest)
        }
        let user: UserRecord
        do {
            user = try await account.platform.users.create(NewUser(name: name, email: email, password: password))
        } catch let error as AccountError {
            return signupPage(request, name: name, email: email, message: error.description, status: .badRequest)
        }
        let session = try await account.platform.browserSessions.start(
            userID: user.id,
            lifetime: account.configuration.browserSessionLifetime,
            from: context.sessionOrigin(of: request)
        )
        context.logger.info("Account created", metadata: ["user.id": "\(user.id)"])
        var response = AccountPages.redirect(to: "/account?notice=welcome")
        response.setCookie(account.cookies.session(session))
        return response
    }

    private func signupPage(
        _ request: Request,
        name: String,
        email: String,
        message: String?,
        status: HTTPResponse.Status
    )
        -> Response
    {
        account.preLoginPage(
            "signup",
            request,
            message: message,
            status: status,
            values: [
                "title": "Sign up", "name": name, "email": email,
                "minimumPassword": NewUser.passwordBytes.lowerBound, "maximumPassword": NewUser.passwordBytes.upperBound,
            ]
        )
    }

    // MARK: - Log in and out

    private func showLogin(_ request: Request) async throws -> Response {
        let next = AccountPages.localPath(FormReader.query(of: request)["next"])
        if try await account.signedIn(request) != nil { return AccountPages.redirect(to: next) }
        return loginPage(request, login: "", next: next, message: nil, status: .ok)
    }

    private func logIn(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await account.readForm(request)
        let login = PasswordLogin.normalizedLogin(form["login"])
        let next = AccountPages.localPath(form["next"])
        guard account.csrf.verifyPreLogin(form["csrf_token"], for: request) else {
            return loginPage(request, login: login, next: next, message: "This form expired. Please log in again.", status: .forbidden)
        }
        switch try await passwordLogin.attempt(
            login: login,
            password: form["password"] ?? "",
            origin: context.sessionOrigin(of: request),
            logger: context.logger
        )
        {
        case .refused(let refusal):
            return refusal.marking(loginPage(request, login: login, next: next, message: refusal.message, status: refusal.status))
        case .loggedIn(let user, let session):
            context.logger.info("Logged in to the account pages", metadata: ["user.id": "\(user.id)"])
            var response = AccountPages.redirect(to: next)
            response.setCookie(account.cookies.session(session))
            return response
        }
    }

    private func loginPage(
        _ request: Request,
        login: String,
        next: String,
        message: String?,
        status: HTTPResponse.Status
    )
        -> Response
    {
        account.preLoginPage(
            "account-login",
            request,
            message: message,
            status: status,
            values: ["title": "Log in", "login": login, "next": next]
        )
    }

    /// Ends the browser's session and goes to the login page, which returns to `next` (a path on
    /// this site) once someone logs in again.
    private func logOut(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        var next: String?
        if let person = try await account.signedIn(request) {
            let form = try await account.readForm(request, of: person)
            next = form["next"].map { AccountPages.localPath($0) }
            try await account.platform.browserSessions.end(cookie: person.session)
            context.logger.info("Logged out", metadata: ["user.id": "\(person.user.id)"])
        }
        var response = AccountPages.redirect(to: "/login" + (next.map { "?next=" + FormParameters.encode($0) } ?? ""))
        response.setCookie(account.cookies.expiredSession())
        return response
    }
}
