import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Developer pages", .timeLimit(.minutes(3)))
struct DeveloperPagesTests {
    static func appForm(
        _ csrf: String,
        name: String = "Notes",
        type: String = "confidential",
        redirectURIs: [String] = ["https://notes.example.com/cb"],
        deauthorize: String = "",
        dataDeletion: String = "",
        mayPublish: Bool = false
    ) -> FormParameters {
        var form: FormParameters = [
            "csrf_token": csrf, "name": name, "type": type, "redirect_uris": redirectURIs.joined(separator: "\r\n"),
            "deauthorize_url": deauthorize, "data_deletion_url": dataDeletion,
        ]
        if mayPublish { form.append("may_publish", "on") }
        return form
    }

    /// The value of the first `<code>` after `label` on a page.
    static func code(after label: String, in page: Page) -> String? {
        guard let start = page.body.range(of: label),
            let match = page.body[start.upperBound...].firstMatch(of: /<code>([^<]+)<\/code>/)
        else { return nil }
        return Page.unescape(String(match.1))
    }

    static func clientCredentials(_ server: LiveServer, appID: String, secret: String) async throws -> HTTPResponse.Status {
        try await server.postForm("/oauth/access_token", ["grant_type": "client_credentials", "client_id": appID, "client_secret": secret]).0
    }

    @Test(
        "making an app: every bad redirect URI gets its own message and nothing is stored; a good form shows the secret once",
        arguments: TestEngine.enabled
    )
    func create(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let browser = server.browser()
            #expect(try await browser.logIn("ada").status == .seeOther)
            let csrf = try #require(try await browser.get("/developers").csrfToken)
            #expect(try await browser.post("/developers/apps", form: Self.appForm("forged")).status == .forbidden)
            let bad = try await browser.post(
                "/developers/apps",
                form: Self.appForm(
                    csrf,
                    redirectURIs: [
                        "javascript:alert(1)", "http://notes.example.com/cb", "https://notes.example.com/cb#top", "https://ok.example.com/cb",
                    ],
                    deauthorize: "ftp://notes.example.com/x"
                )
            )
            #expect(bad.status == .badRequest)
            for expected in [
                "javascript: scheme", "plain http on a host that is not loopback", "must not have a fragment", "deauthorize callback URL",
            ] {
                #expect(bad.body.contains(expected), "\(expected)")
            }
            #expect(bad.body.contains("https://ok.example.com/cb"), "what was typed is kept")
            #expect(try await server.platform.apps.list().isEmpty)

            let made = try await browser.post(
                "/developers/apps",
                form: Self.appForm(
                    csrf,
                    dataDeletion: "https://notes.example.com/deletion"
                )
            )
            #expect(made.status == .ok)
            let app = try #require(try await server.platform.apps.list().first)
            #expect(app.ownerID != nil && !app.mayPublish && app.isConfidential)
            #expect(app.dataDeletionCallbackURL == "https://notes.example.com/deletion")
            let secret = try #require(Self.code(after: "Client secret", in: made))
            #expect(Self.code(after: "Callback signing secret", in: made)?.hasPrefix("kss_") == true)
            #expect(made.body.contains("kinship\(app.id)://authorize"))
            #expect(try await Self.clientCredentials(server, appID: app.id, secret: secret) == .ok)

            let page = try await browser.get("/developers/apps/\(app.id)")
            #expect(!page.body.contains(secret), "the secret is shown only once")
            #expect(try await browser.get("/developers").body.contains("Notes"))
        }
    }

    @Test("an app's page is its owner's and the administrators'; to anyone else it does not exist", arguments: TestEngine.enabled)
    func ownership(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            _ = try await server.platform.users.setAdmin(userID: grace.id, true)
            let (app, _) = try await server.platform.apps.create(
                name: "Ada's app",
                redirectURIs: [loopbackRedirect],
                isConfidential: false,
                ownerID: ada.id
            )
            for (login, status) in [("ada", HTTPResponse.Status.ok), ("lin", .notFound), ("grace", .ok)] {
                let browser = server.browser()
                #expect(try await browser.logIn(login).status == .seeOther)
                #expect(try await browser.get("/developers/apps/\(app.id)").status == status, "\(login)")
            }
            let linBrowser = server.browser()
            #expect(try await linBrowser.logIn("lin").status == .seeOther)
            let csrf = try #require(try await linBrowser.get("/developers").csrfToken)
            #expect(
                try await linBrowser.post("/developers/apps/\(app.id)/delete", form: ["csrf_token": csrf, "confirm": "Ada's app"]).status
                    == .notFound
            )
            #expect(try await server.platform.apps.find(id: app.id) != nil)
            _ = lin
        }
    }

    @Test(
        "rotating the secret: the old one works for the grace period picked, then stops; of rotations at once, one secret is current",
        arguments: TestEngine.enabled
    )
    func rotate(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let (app, first) = try await server.platform.apps.create(
                name: "Notes",
                redirectURIs: [loopbackRedirect],
                isConfidential: true,
                ownerID: ada.id
            )
            let browser = server.browser()
            #expect(try await browser.logIn("ada").status == .seeOther)
            let csrf = try #require(try await browser.get("/developers/apps/\(app.id)").csrfToken)
            let appToken = try #require(
                try await server.postForm(
                    "/oauth/access_token",
                    [
                        "grant_type": "client_credentials", "client_id": app.id, "client_secret": first,
                    ]
                ).1["access_token"] as? String
            )

            let rotated = try await browser.post("/developers/apps/\(app.id)/secret", form: ["csrf_token": csrf, "grace": "3600"])
            let second = try #require(Self.code(after: "Client secret", in: rotated))
            #expect(rotated.body.contains("The secret before the last one works until"))
            #expect(try await Self.clientCredentials(server, appID: app.id, secret: first) == .ok, "within the grace period")
            #expect(try await Self.clientCredentials(server, appID: app.id, secret: second) == .ok)
            #expect(try await server.graph("/\(app.id)", token: appToken).0 == .ok, "an app token made with the old secret too")
            server.clock.advance(by: 3_600)
            #expect(try await Self.clientCredentials(server, appID: app.id, secret: first) == .unauthorized, "after it")
            #expect(try await server.graph("/\(app.id)", token: appToken).0 != .ok)
            #expect(try await Self.clientCredentials(server, appID: app.id, secret: second) == .ok)
            #expect(
                try await browser.post("/developers/apps/\(app.id)/secret", form: ["csrf_token": csrf, "grace": "12"]).status
                    == .badRequest,
                "only the offered grace periods"
            )

            let secrets = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        Self.code(
                            after: "Client secret",
                            in: try await browser.post(
                                "/developers/apps/\(app.id)/secret",
                                form: ["csrf_token": csrf, "grace": "0"]
                            )
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }.compactMap { $0 }
            #expect(secrets.count == 4)
            var working = 0
            for secret in secrets + [second] where try await Self.clientCredentials(server, appID: app.id, secret: secret) == .ok {
                working += 1
            }
            #expect(working == 1, "with no grace, only the last secret made works")
        }
    }

    @Test(
        "editing keeps the dialog's rules: without publish_actions allowed the dialog refuses it; deleting stops every token",
        arguments: TestEngine.enabled
    )
    func editAndDelete(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let (record, _) = try await server.platform.apps.create(
                name: "Notes",
                redirectURIs: [loopbackRedirect],
                isConfidential: false,
                ownerID: ada.id
            )
            let app = TestApp(record: record, secret: "")
            let token = try await server.logInAndGetToken(app, scope: [.publishActions])
            let browser = server.browser()
            #expect(try await browser.logIn("ada").status == .seeOther)
            let csrf = try #require(try await browser.get("/developers/apps/\(app.id)").csrfToken)
            let saved = try await browser.post(
                "/developers/apps/\(app.id)",
                form: Self.appForm(
                    csrf,
                    name: "Notes 2",
                    type: "public",
                    redirectURIs: [loopbackRedirect],
                    mayPublish: false
                )
            )
            #expect(saved.location == "/developers/apps/\(app.id)?notice=saved")
            let changed = try #require(try await server.platform.apps.find(id: app.id))
            #expect(changed.name == "Notes 2" && !changed.mayPublish)
            let dialog = try await server.browser().get(server.dialogURI(app, scope: [.publishActions], pkce: .make()))
            #expect(dialog.location?.contains("error=invalid_scope") == true, "\(dialog.status) \(dialog.location ?? "")")

            let wrongName = try await browser.post("/developers/apps/\(app.id)/delete", form: ["csrf_token": csrf, "confirm": "Notes"])
            #expect(wrongName.status == .badRequest)
            #expect(try await server.graph("/me", token: token).0 == .ok)
            let deleted = try await browser.post("/developers/apps/\(app.id)/delete", form: ["csrf_token": csrf, "confirm": "Notes 2"])
            #expect(deleted.location == "/developers?notice=deleted")
            #expect((try await server.graph("/me", token: token).1["error"] as? [String: Any])?["code"] as? Int == 190)
            #expect(try await server.platform.apps.find(id: app.id) == nil)
        }
    }
}
