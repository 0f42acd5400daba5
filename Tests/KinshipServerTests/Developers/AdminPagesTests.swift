import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Administration", .timeLimit(.minutes(3)))
struct AdminPagesTests {
    @Test(
        "only administrators see /admin; suspending stops every token and session at once and the dialog says why; lifting lets the person back",
        arguments: TestEngine.enabled
    )
    func suspend(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let admin = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            _ = try await server.platform.users.setAdmin(userID: admin.id, true)
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let login = try await server.loginResponse(app, scope: [.publicProfile])
            let token = try #require(login["access_token"] as? String)
            let refreshToken = try #require(login["refresh_token"] as? String)
            let adaBrowser = server.browser()
            #expect(try await adaBrowser.logIn("ada").status == .seeOther)
            #expect(try await adaBrowser.get("/admin").status == .notFound, "not an administrator")

            let browser = server.browser()
            #expect(try await browser.logIn("grace").status == .seeOther)
            let page = try await browser.get("/admin")
            #expect(page.status == .ok && page.body.contains("Ada Lovelace") && page.body.contains("Demo"))
            #expect(try await browser.get("/admin?q=lovelace").body.contains("ada@example.com"))
            #expect(!(try await browser.get("/admin?q=nobody%25").body.contains("ada@example.com")), "% is a character, not a wildcard")
            let csrf = try #require(page.csrfToken)
            #expect(
                try await browser.post("/admin/people", form: ["csrf_token": csrf, "user_id": admin.id, "action": "suspend"]).status
                    == .badRequest,
                "not oneself"
            )
            #expect(
                try await browser.post("/admin/people", form: ["csrf_token": "forged", "user_id": ada.id, "action": "suspend"]).status
                    == .forbidden
            )

            let outcomes = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        try await browser.post("/admin/people", form: ["csrf_token": csrf, "user_id": ada.id, "action": "suspend"]).location
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "/admin?notice=suspended" }.count == 1, "\(outcomes)")
            #expect(outcomes.filter { $0 == "/admin?notice=unchanged" }.count == 3)

            let error = try #require(try await server.graph("/me", token: token).1["error"] as? [String: Any])
            #expect(error["code"] as? Int == 190 && error["error_subcode"] as? Int == GraphErrorCode.subcodeSuspended)
            let refreshed = try await server.refresh(refreshToken, app: app).1
            #expect(refreshed["error"] as? String == "invalid_grant")
            #expect((refreshed["error_description"] as? String)?.contains("suspended") == true)
            #expect(try await adaBrowser.get("/account").location?.hasPrefix("/login") == true)
            let refused = try await server.browser().logIn("ada")
            #expect(refused.status == .forbidden && refused.body.contains("This account is suspended"))
            let dialog = try await server.consentPageOrLogin(app)
            #expect(dialog.status == .forbidden && dialog.body.contains("This account is suspended"))

            #expect(
                try await browser.post("/admin/people", form: ["csrf_token": csrf, "user_id": ada.id, "action": "lift"]).location
                    == "/admin?notice=lifted"
            )
            #expect(try await server.browser().logIn("ada").status == .seeOther)
            #expect(try await server.graph("/me", token: token).0 != .ok, "tokens the suspension ended stay ended")
        }
    }
}

extension LiveServer {
    /// Opens the dialog for `app` and posts the login form with Ada's password; returns the answer.
    func consentPageOrLogin(_ app: TestApp) async throws -> Page {
        let browser = browser()
        let page = try await browser.get(dialogURI(app, scope: [.publicProfile], pkce: .make()))
        let form = try #require(page.form(action: "/dialog/login"))
        var parameters = FormParameters()
        for field in form.fields {
            switch field.name {
            case "login": parameters.append("login", "ada@example.com")
            case "password": parameters.append("password", testPassword)
            default: parameters.append(field.name, field.value)
            }
        }
        return try await browser.post("/dialog/login", form: parameters)
    }
}

@Suite("Suspension and password changes across processes", .timeLimit(.minutes(3)))
struct AccountChangesAcrossProcessesTests {
    @Test(
        "a token another process has checked (and cached) stops there too when its person is suspended or changes password",
        arguments: TestEngine.enabled
    )
    func seenByTheOtherProcess(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let app = try await server.makeApp()
            let adaToken = try await server.logInAndGetToken(app, scope: [])
            let linToken = try await server.logInAndGetToken(app, scope: [], login: "lin@example.com")
            try await withSecondProcess(of: server, configure: { _ in }) { other in
                #expect(try await other.graph("/me", token: adaToken).0 == .ok, "checked, and cached on SQLite, by the other process")
                #expect(try await other.graph("/me", token: linToken).0 == .ok)
                server.clock.advance(by: 5)
                #expect(try await server.platform.users.suspend(userID: ada.id))
                #expect(try await server.platform.users.changePassword(of: lin, to: "a new password", keepingSession: "none"))
                let suspended = try #require(try await other.graph("/me", token: adaToken).1["error"] as? [String: Any])
                #expect(suspended["error_subcode"] as? Int == GraphErrorCode.subcodeSuspended)
                let changed = try #require(try await other.graph("/me", token: linToken).1["error"] as? [String: Any])
                #expect(changed["error_subcode"] as? Int == GraphErrorCode.subcodePasswordChanged)
            }
        }
    }
}
