import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Changing a password", .timeLimit(.minutes(3)))
struct PasswordChangeTests {
    @Test(
        "the current password is required; afterwards other browsers are logged out and earlier tokens answer 190/460",
        arguments: TestEngine.enabled
    )
    func change(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let login = try await server.loginResponse(app, scope: [.publicProfile])
            let oldToken = try #require(login["access_token"] as? String)
            let refreshToken = try #require(login["refresh_token"] as? String)
            let here = server.browser()
            let elsewhere = server.browser()
            #expect(try await here.logIn("ada").status == .seeOther)
            #expect(try await elsewhere.logIn("ada").status == .seeOther)
            server.clock.advance(by: 5)

            let page = try await here.get("/account/security")
            let csrf = try #require(page.csrfToken)
            let forged = try await here.post(
                "/account/password",
                form: [
                    "csrf_token": "forged", "current_password": testPassword, "new_password": "a new password",
                    "new_password_again": "a new password",
                ]
            )
            #expect(forged.status == .forbidden)
            let wrong = try await here.post(
                "/account/password",
                form: [
                    "csrf_token": csrf, "current_password": "not it at all", "new_password": "a new password", "new_password_again": "a new password",
                ]
            )
            #expect(wrong.status == .unauthorized && wrong.body.contains("not your current password"))
            let mismatch = try await here.post(
                "/account/password",
                form: [
                    "csrf_token": csrf, "current_password": testPassword, "new_password": "a new password", "new_password_again": "another one",
                ]
            )
            #expect(mismatch.status == .badRequest && mismatch.body.contains("not the same"))
            let short = try await here.post(
                "/account/password",
                form: [
                    "csrf_token": csrf, "current_password": testPassword, "new_password": "short", "new_password_again": "short",
                ]
            )
            #expect(short.status == .badRequest && short.body.contains("8 to 72 bytes"))
            #expect(try await server.graph("/me", token: oldToken).0 == .ok, "nothing changed yet")

            let changed = try await here.post(
                "/account/password",
                form: [
                    "csrf_token": csrf, "current_password": testPassword, "new_password": "a new password", "new_password_again": "a new password",
                ]
            )
            #expect(changed.location == "/account/security?notice=password")
            #expect(try await here.get(try #require(changed.location)).body.contains("Your password is changed"), "this browser stays logged in")
            #expect(try await elsewhere.get("/account").location?.hasPrefix("/login") == true, "the other browser is logged out")

            let (status, body) = try await server.graph("/me", token: oldToken)
            let error = try #require(body["error"] as? [String: Any])
            #expect(status == .badRequest || status == .unauthorized)
            #expect(error["code"] as? Int == 190 && error["error_subcode"] as? Int == 460)
            let (refreshStatus, refreshBody) = try await server.refresh(refreshToken, app: app)
            #expect(refreshStatus == .badRequest && refreshBody["error"] as? String == "invalid_grant")
            #expect((refreshBody["error_description"] as? String)?.contains("password of this account was changed") == true)

            #expect(try await server.browser().logIn("ada").status == .unauthorized, "the old password no longer works")
            #expect(try await server.browser().logIn("ada", password: "a new password").status == .seeOther)
        }
    }

    @Test("a token issued in the same second as the change stops too", arguments: TestEngine.enabled)
    func sameSecond(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [])
            let browser = server.browser()
            #expect(try await browser.logIn("ada").status == .seeOther)
            let csrf = try #require(try await browser.get("/account/security").csrfToken)
            _ = try await browser.post(
                "/account/password",
                form: [
                    "csrf_token": csrf, "current_password": testPassword, "new_password": "a new password", "new_password_again": "a new password",
                ]
            )
            #expect(try await server.platform.users.find(id: user.id)?.passwordChangedAt == server.clock.now)
            let (_, body) = try await server.graph("/me", token: token)
            #expect((body["error"] as? [String: Any])?["code"] as? Int == 190)
            let fresh = try await server.logInAndGetToken(app, scope: [], browser: browser)
            #expect(try await server.graph("/me", token: fresh).0 == .ok, "a login after the change, in the same second, works")
        }
    }

    @Test(
        "two browsers changing the password at once: one change wins, and its password is the one that works",
        arguments: TestEngine.enabled
    )
    func concurrentChanges(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            var browsers: [(Browser, String)] = []
            for _ in 0..<4 {
                let browser = server.browser()
                #expect(try await browser.logIn("ada").status == .seeOther)
                browsers.append((browser, try #require(try await browser.get("/account/security").csrfToken)))
            }
            let outcomes = try await withThrowingTaskGroup(of: (String, String?).self) { group in
                for (index, (browser, csrf)) in browsers.enumerated() {
                    let password = "new password \(index)"
                    group.addTask {
                        let page = try await browser.post(
                            "/account/password",
                            form: [
                                "csrf_token": csrf, "current_password": testPassword, "new_password": password, "new_password_again": password,
                            ]
                        )
                        return (password, page.location)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = outcomes.filter { $0.1 == "/account/security?notice=password" }
            #expect(winners.count == 1, "\(outcomes)")
            for (password, _) in outcomes {
                let status = try await server.browser().logIn("ada", password: password).status
                #expect(status == (password == winners.first?.0 ? .seeOther : .unauthorized))
            }
        }
    }

    @Test("guessing the current password through the form is limited like the login form", arguments: TestEngine.enabled)
    func throttled(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            var browsers: [(Browser, String)] = []
            for _ in 0..<12 {
                let browser = server.browser()
                #expect(try await browser.logIn("ada").status == .seeOther, "a right password is not counted against the limit")
                browsers.append((browser, try #require(try await browser.get("/account/security").csrfToken)))
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (guess, (browser, csrf)) in browsers.enumerated() {
                    group.addTask {
                        try await browser.post(
                            "/account/password",
                            form: [
                                "csrf_token": csrf, "current_password": "guess \(guess)", "new_password": "a new password",
                                "new_password_again": "a new password",
                            ]
                        ).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let limit = server.configuration.loginLimits.perAccount
            #expect(statuses.filter { $0 == .unauthorized }.count == limit)
            #expect(statuses.filter { $0 == .tooManyRequests }.count == 12 - limit)
        }
    }
}
