import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Resetting a forgotten password", .timeLimit(.minutes(3)))
struct PasswordResetTests {
    static func withMail(_ configuration: inout ServerConfiguration) {
        configuration.mail = try? MailSink.plain()
    }

    /// Asks for a reset link for `email` on the forgot page; returns the answer.
    static func askForLink(_ browser: Browser, email: String) async throws -> Page {
        let csrf = try #require(try await browser.get("/password/forgot").csrfToken)
        return try await browser.post("/password/forgot", form: ["csrf_token": csrf, "email": email])
    }

    @Test("the mailed link sets a new password once, and ends every session and earlier token", arguments: TestEngine.enabled)
    func reset(engine: TestEngine) async throws {
        #expect(throws: Never.self) { try MailSink.plain() }
        try await withLiveServer(engine, configure: Self.withMail) { server in
            let email = "reset-\(engine)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await server.makeUser(name: "Ada Lovelace", email: email, username: nil)
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [], login: email)
            let loggedIn = server.browser()
            #expect(try await loggedIn.logIn(email).status == .seeOther)
            server.clock.advance(by: 5)

            let unknown = try await Self.askForLink(server.browser(), email: "nobody-\(UUID().uuidString.prefix(8))@example.com")
            let asked = try await Self.askForLink(server.browser(), email: email.uppercased())
            #expect(asked.status == .ok && asked.body.contains("Check your email"))
            #expect(
                unknown.status == asked.status && unknown.body.replacingOccurrences(of: "nobody", with: "") != "",
                "an unknown address gets the same kind of answer"
            )

            let message = try #require(try await MailSink.waitForMessages(to: email).first)
            #expect(message.headers["subject"] == "Set a new Kinship password")
            #expect(message.text.contains("Hello Ada Lovelace") && message.text.contains("30 minutes"))
            let path = try MailSink.resetPath(in: message)

            let browser = server.browser()
            let form = try await browser.get(path)
            #expect(form.status == .ok && form.body.contains("Set a new password"))
            let csrf = try #require(form.csrfToken)
            let resetToken = try #require(path.split(separator: "=").last.map(String.init))
            let mismatch = try await browser.post(
                "/password/reset",
                form: [
                    "csrf_token": csrf, "token": resetToken, "new_password": "a brand new one", "new_password_again": "another",
                ]
            )
            #expect(mismatch.status == .badRequest)
            let done = try await browser.post(
                "/password/reset",
                form: [
                    "csrf_token": csrf, "token": resetToken, "new_password": "a brand new one", "new_password_again": "a brand new one",
                ]
            )
            #expect(done.status == .ok && done.body.contains("Your password is set"))

            let (_, body) = try await server.graph("/me", token: token)
            #expect((body["error"] as? [String: Any])?["error_subcode"] as? Int == 460)
            #expect(try await loggedIn.get("/account").location?.hasPrefix("/login") == true)
            #expect(try await server.browser().logIn(email, password: "a brand new one").status == .seeOther)
            #expect(try await browser.get(path).status == .gone, "the link works once")
        }
    }

    @Test(
        "a link used from many browsers at once sets the password once; a link expires after 30 minutes",
        arguments: TestEngine.enabled
    )
    func singleUseAndExpiry(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let token = try await server.platform.passwordResets.issue(userID: user.id, lifetime: 30 * 60)
            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                for index in 0..<8 {
                    group.addTask { try await server.platform.passwordResets.redeem(token, newPassword: "new password \(index)") }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.compactMap { $0 }.count == 1)

            let later = try await server.platform.passwordResets.issue(userID: user.id, lifetime: 30 * 60)
            server.clock.advance(by: 30 * 60)
            #expect(try await server.platform.passwordResets.holder(of: later) == nil)
            #expect(try await server.platform.passwordResets.redeem(later, newPassword: "too late now") == nil)
            #expect(try await server.browser().get("/password/reset?token=" + later).status == .gone)
            #expect(try await server.browser().get("/password/reset?token=kpr_made-up").status == .gone)
        }
    }

    @Test(
        "asking is limited: three links an hour per account, and the address limit holds under parallel asks",
        arguments: TestEngine.enabled
    )
    func throttled(engine: TestEngine) async throws {
        try await withLiveServer(
            engine,
            configure: { configuration in
                Self.withMail(&configuration)
                configuration.passwordResets.perAddressPerHour = 6
            }
        ) { server in
            let email = "limit-\(engine)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            _ = try await server.makeUser(name: "Lin Wei", email: email, username: nil)
            var browsers: [Browser] = []
            for _ in 0..<10 { browsers.append(server.browser()) }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for browser in browsers { group.addTask { try await Self.askForLink(browser, email: email).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .ok }.count == 6)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 4)
            _ = try await MailSink.waitForMessages(to: email, count: 3)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try MailSink.messages(to: email).count == 3, "no more than three links an hour for one account")
        }
    }

    @Test("without SMTP the page says so and sends nothing", arguments: [TestEngine.sqlite])
    func withoutMail(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let page = try await server.browser().get("/password/forgot")
            #expect(page.body.contains("does not send email"))
            #expect(try await server.browser().post("/password/forgot", form: ["email": "ada@example.com"]).status == .serviceUnavailable)
        }
    }
}
