import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// "Forgot your password?": `/password/forgot` mails a reset link to an account's address;
/// `/password/reset?token=…` sets a new password with it. A link works once, for
/// ``ServerConfiguration/PasswordResets/lifetime``; asking is limited per address and per account;
/// the answer to asking is the same whether or not the address has an account.
struct PasswordResetController: Sendable {
    let account: AccountPages
    /// `nil` when the server has no SMTP server configured: the page says so.
    let mailer: Mailer?
    let issuer: Issuer

    private var limits: ServerConfiguration.PasswordResets { account.configuration.passwordResets }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/password/forgot") { request, _ in forgotPage(request, email: "", message: nil, status: .ok) }
        router.post("/password/forgot") { request, context in try await sendLink(request, context) }
        router.get("/password/reset") { request, _ in try await showReset(request) }
        router.post("/password/reset") { request, context in try await reset(request, context) }
    }

    private func forgotPage(_ request: Request, email: String, message: String?, status: HTTPResponse.Status) -> Response {
        account.preLoginPage(
            "forgot-password",
            request,
            message: message,
            status: status,
            values: [
                "title": "Forgot your password?", "email": email, "enabled": mailer != nil, "minutes": limits.lifetime / 60,
            ]
        )
    }

    private func sendLink(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await account.readForm(request)
        let email = PasswordLogin.normalizedLogin(form["email"])
        guard let mailer else { return forgotPage(request, email: email, message: nil, status: .serviceUnavailable) }
        guard account.csrf.verifyPreLogin(form["csrf_token"], for: request) else {
            return forgotPage(request, email: email, message: "This form expired. Please try again.", status: .forbidden)
        }
        let platform = account.platform
        if let retryAfter = try await platform.rateLimits.hit(
            "password reset:" + context.clientAddress,
            limit: limits.perAddressPerHour,
            windowSeconds: 3_600
        ) {
            context.logger.notice("Password reset refused: too many from one address", metadata: ["reset.address": "\(context.clientAddress)"])
            var response = forgotPage(
                request,
                email: email,
                message: "Too many reset links were asked for from your network. Try again later.",
                status: .tooManyRequests
            )
            response.headers[.retryAfter] = String(retryAfter)
            return response
        }
        if let user = try await platform.users.find(login: email), user.email == email {
            if try await platform.rateLimits.hit("password reset account:" + user.id, limit: limits.perAccountPerHour, windowSeconds: 3_600)
                == nil
            {
                let token = try await platform.passwordResets.issue(userID: user.id, lifetime: limits.lifetime)
                mailer.post(resetMail(to: user, link: issuer.url + "/password/reset?token=" + token))
                context.logger.info("Password reset link queued", metadata: ["user.id": "\(user.id)"])
            } else {
                context.logger.notice("Password reset link not sent: too many for this account", metadata: ["user.id": "\(user.id)"])
            }
        }
        return account.pages.done(
            heading: "Check your email",
            message: "If an account uses \(email), a link to set a new password is on its way. "
                + "It works once, for \(limits.lifetime / 60) minutes.",
            link: ("Back to logging in", "/login")
        )
    }

    private func resetMail(to user: UserRecord, link: String) -> MailMessage {
        MailMessage(
            purpose: "password reset",
            userID: user.id,
            recipient: user.email,
            recipientName: user.name,
            subject: "Set a new Kinship password",
            text: """
                Hello \(user.name),

                Someone, we hope you, asked to set a new password for your Kinship account at \(issuer.url).

                Set it here. The link works once, for \(limits.lifetime / 60) minutes:
                \(link)

                If it was not you, ignore this message: your password stays as it is.
                """
        )
    }

    private func showReset(_ request: Request) async throws -> Response {
        let token = FormReader.query(of: request)["token"] ?? ""
        guard let user = try await account.platform.passwordResets.holder(of: token) else { return Self.unusableLink(account.pages) }
        return resetPage(request, token: token, email: user.email, message: nil, status: .ok)
    }

    private func resetPage(_ request: Request, token: String, email: String, message: String?, status: HTTPResponse.Status) -> Response {
        account.preLoginPage(
            "reset-password",
            request,
            message: message,
            status: status,
            values: [
                "title": "Set a new password", "token": token, "email": email,
                "minimumPassword": NewUser.passwordBytes.lowerBound, "maximumPassword": NewUser.passwordBytes.upperBound,
            ]
        )
    }

    private func reset(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await account.readForm(request)
        let token = form["token"] ?? ""
        let platform = account.platform
        guard let user = try await platform.passwordResets.holder(of: token) else { return Self.unusableLink(account.pages) }
        guard account.csrf.verifyPreLogin(form["csrf_token"], for: request) else {
            return resetPage(request, token: token, email: user.email, message: "This form expired. Please try again.", status: .forbidden)
        }
        let new = form["new_password"] ?? ""
        guard new == form["new_password_again"] else {
            return resetPage(request, token: token, email: user.email, message: "The two passwords are not the same.", status: .badRequest)
        }
        let userID: String?
        do {
            userID = try await platform.passwordResets.redeem(token, newPassword: new)
        } catch let error as AccountError {
            return resetPage(request, token: token, email: user.email, message: error.description, status: .badRequest)
        }
        guard let userID else { return Self.unusableLink(account.pages) }
        context.logger.notice("Password reset from a mailed link; every session and earlier token ended", metadata: ["user.id": "\(userID)"])
        var response = account.pages.done(
            heading: "Your password is set",
            message: "Every browser and app that was logged in to your account is logged out. Log in with your new password.",
            link: ("Log in", "/login")
        )
        response.setCookie(account.cookies.expiredSession())
        return response
    }

    private static func unusableLink(_ pages: PageRenderer) -> Response {
        pages.error(
            status: .gone,
            heading: "This link does not work any more",
            message: "A reset link works once, for a short while, and a newer password change ends it.",
            detail: "Ask for a new link on the “Forgot your password?” page."
        )
    }
}
