import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// The login dialog: `GET /dialog/oauth` shows the login form or the consent page; the forms post
/// to `/dialog/login`, `/dialog/oauth/confirm` and `/dialog/logout`.
struct DialogController: Sendable {
    let platform: Platform
    let configuration: ServerConfiguration
    let metrics: ServerMetrics
    let pages: PageRenderer
    let validator: DialogRequestValidator
    let csrf: CSRFProtection
    let passwordLogin: PasswordLogin
    let cookies: BrowserCookies

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/dialog/oauth") { request, context in try await show(request, context) }
        router.post("/dialog/login") { request, context in try await logIn(request, context) }
        router.post("/dialog/oauth/confirm") { request, context in try await confirm(request, context) }
        router.post("/dialog/logout") { request, context in try await logOut(request, context) }
    }

    /// The dialog request a page or form carries, checked; anything else is answered at once.
    private func accept(_ parameters: FormParameters) async throws -> DialogRequestValidator.Accepted {
        switch try await validator.validate(parameters) {
        case .success(let accepted): return accepted
        case .failure(let rejection): throw EarlyAnswer(response: rejection.response)
        }
    }

    // MARK: - Routes

    private func show(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let accepted = try await accept(FormReader.query(of: request))
        let dialogRequest = accepted.request
        let prompts = dialogRequest.prompts ?? []
        let person = try await SignedIn.find(in: request, platform: platform)
        guard let person, !needsPassword(dialogRequest, person) else {
            if prompts.contains(.none) {
                let problem = AuthorizationError(.loginRequired, description: "The person must log in to Kinship first.")
                return validator.redirect(dialogRequest, .error(problem, state: dialogRequest.state))
            }
            return loginPage(request, accepted, message: nil, login: dialogRequest.loginHint ?? "", status: .ok)
        }
        guard prompts.contains(.none) else {
            return try await consentPage(accepted, user: person.user, session: person.session)
        }
        let existing = try await platform.authorizations.active(userID: person.user.id, appID: accepted.app.id)
        let plan = ConsentPlan(requested: dialogRequest.scope, existing: existing, rerequest: dialogRequest.authType == .rerequest)
        guard let existing, plan.asked.isEmpty else {
            let problem = AuthorizationError(.consentRequired, description: "The person must approve what the app asks for first.")
            return validator.redirect(dialogRequest, .error(problem, state: dialogRequest.state))
        }
        return try await issueCode(accepted, existing, person, context)
    }

    /// Whether the person must type their password although the browser is logged in: the app
    /// asked for it (`prompt=login`), or their login is older than the app's `max_age`.
    private func needsPassword(_ request: AuthorizationRequest, _ person: SignedIn) -> Bool {
        let prompts = request.prompts ?? []
        if prompts.contains(.login) || prompts.contains(.selectAccount) { return true }
        if let maxAge = request.maxAgeSeconds, platform.clock.now - person.authenticatedAt > maxAge { return true }
        return false
    }

    private func logIn(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await readForm(request)
        let accepted = try await accept(form)
        let login = PasswordLogin.normalizedLogin(form["login"])
        guard csrf.verifyPreLogin(form["csrf_token"], for: request) else {
            return loginPage(request, accepted, message: "This form expired. Please log in again.", login: login, status: .forbidden)
        }
        switch try await passwordLogin.attempt(
            login: login,
            password: form["password"] ?? "",
            origin: context.sessionOrigin(of: request),
            logger: context.logger
        )
        {
        case .refused(let refusal):
            return refusal.marking(loginPage(request, accepted, message: refusal.message, login: login, status: refusal.status))
        case .loggedIn(let user, let session):
            context.logger.info("Logged in to the dialog", metadata: ["user.id": "\(user.id)", "app.id": "\(accepted.app.id)"])
            // The password was just typed: `prompt=login` is answered and does not ask again.
            var response = Self.backToDialog(accepted.request.withoutPrompts([.login, .selectAccount]))
            response.setCookie(cookies.session(session))
            return response
        }
    }

    private func confirm(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await readForm(request)
        let accepted = try await accept(form)
        guard let person = try await SignedIn.find(in: request, platform: platform) else {
            return Self.backToDialog(accepted.request)
        }
        let (userID, session) = (person.user.id, person.session)
        guard csrf.verify(form["csrf_token"], forSession: session) else {
            return pages.error(
                status: .forbidden,
                heading: "This form expired",
                message: "The consent form could not be verified, so nothing was shared.",
                detail: "Go back to the app and log in again."
            )
        }
        let dialogRequest = accepted.request
        guard form["action"] == "continue" else {
            context.logger.info("Login cancelled", metadata: ["user.id": "\(userID)", "app.id": "\(accepted.app.id)"])
            return validator.redirect(dialogRequest, .error(.userDenied, state: dialogRequest.state))
        }
        let step: PermissionKind = form["step"] == PermissionKind.publish.rawValue ? .publish : .read
        let (authorization, publishStepFollows) = try await ConsentPage(platform: platform, pages: pages).record(
            consent(accepted),
            userID: userID,
            step: step,
            ticked: Set(form.all("permission").map { Permission($0) })
        )
        if publishStepFollows {
            return try await consentPage(accepted, user: person.user, session: session, step: .publish)
        }
        metrics.consent(declined: Set(dialogRequest.scope).intersection(authorization.declined).sorted { $0.rawValue < $1.rawValue })
        return try await issueCode(accepted, authorization, person, context)
    }

    /// Sends the person back to the app with a code for `authorization`.
    private func issueCode(
        _ accepted: DialogRequestValidator.Accepted,
        _ authorization: Authorization,
        _ person: SignedIn,
        _ context: KinshipRequestContext
    ) async throws -> Response {
        let dialogRequest = accepted.request
        let code = try await platform.codes.issue(
            authorization: authorization,
            redirectURI: dialogRequest.redirectURI,
            codeChallenge: dialogRequest.codeChallenge,
            login: CodeLogin(requested: dialogRequest.scope, nonce: dialogRequest.nonce, authTime: person.authenticatedAt),
            lifetime: configuration.codeLifetime
        )
        context.logger.info(
            "Login approved",
            metadata: [
                "user.id": "\(person.user.id)", "app.id": "\(accepted.app.id)",
                "granted": "\(Permission.scope(of: authorization.granted))", "declined": "\(Permission.scope(of: authorization.declined))",
            ]
        )
        return validator.redirect(dialogRequest, .code(code, state: dialogRequest.state))
    }

    private func logOut(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await readForm(request)
        let accepted = try await accept(form)
        if let session = request.cookies[BrowserCookies.session]?.value {
            guard csrf.verify(form["csrf_token"], forSession: session) else {
                return pages.error(
                    status: .forbidden,
                    heading: "This form expired",
                    message: "You are still logged in.",
                    detail: "Go back to the app and start again."
                )
            }
            try await platform.browserSessions.end(cookie: session)
        }
        var response = Self.backToDialog(accepted.request)
        response.setCookie(cookies.expiredSession())
        return response
    }

    // MARK: - Pages

    private func loginPage(
        _ request: Request,
        _ accepted: DialogRequestValidator.Accepted,
        message: String?,
        login: String,
        status: HTTPResponse.Status
    ) -> Response {
        let (token, newCookie) = csrf.preLoginToken(for: request, cookies: cookies)
        var values: [String: Any] = [
            "title": "Log in", "appName": accepted.app.name, "login": login,
            "hiddenFields": hiddenFields(accepted.request, csrfToken: token),
        ]
        if let message { values["message"] = message }
        var response = pages.page("login", values, status: status)
        if let newCookie { response.setCookie(newCookie) }
        return response
    }

    /// The consent page: read permissions first; publish permissions on a step of their own.
    private func consentPage(
        _ accepted: DialogRequestValidator.Accepted,
        user: UserRecord,
        session: String,
        step: PermissionKind? = nil
    ) async throws -> Response {
        try await ConsentPage(platform: platform, pages: pages).render(
            consent(accepted),
            user: user,
            step: step,
            hiddenFields: hiddenFields(accepted.request, csrfToken: csrf.token(forSession: session))
        )
    }

    private func consent(_ accepted: DialogRequestValidator.Accepted) -> ConsentPage.Request {
        .init(
            app: accepted.app,
            requested: accepted.request.scope,
            rerequest: accepted.request.authType == .rerequest,
            formAction: "/dialog/oauth/confirm",
            switchAction: "/dialog/logout"
        )
    }

    private func hiddenFields(_ request: AuthorizationRequest, csrfToken: String) -> [[String: String]] {
        var fields = request.parameters.pairs.map { ["name": $0.name, "value": $0.value] }
        fields.append(["name": "csrf_token", "value": csrfToken])
        return fields
    }

    // MARK: - Helpers

    private func readForm(_ request: Request) async throws -> FormParameters {
        try await pages.readForm(request, limit: configuration.maxFormBytes)
    }

    /// A 303 back to `GET /dialog/oauth` with the same request: the next step is decided there.
    private static func backToDialog(_ request: AuthorizationRequest) -> Response {
        Response(status: .seeOther, headers: [.location: "/dialog/oauth?" + request.parameters.formEncoded])
    }
}
