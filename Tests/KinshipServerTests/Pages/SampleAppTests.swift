import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import NIOCore
import Testing

@testable import KinshipServer
@testable import kinship

@Suite("Sample app", .timeLimit(.minutes(3)))
struct SampleAppTests {
    @Test(
        "logged out, then a login without email: 'Email not shared', re-ask with rerequest, friends JSON with pinyin search",
        arguments: TestEngine.enabled
    )
    func loginAndProfile(engine: TestEngine) async throws {
        try await withLiveServer(engine, builtInApps: [.sample]) { server in
            let ada = try await server.makeUser()
            let wei = try await server.makeUser(name: "张伟", email: "wei@example.com", username: "wei")
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            for friend in [wei, grace] {
                try await server.platform.friends.befriend(ada.id, friend.id)
                _ = try await server.platform.authorizations.recordConsent(
                    userID: friend.id,
                    appID: BuiltInApp.sample.id,
                    granted: [.userFriends],
                    declined: []
                )
            }
            let browser = server.browser()
            let loggedOut = try await browser.get("/sample")
            #expect(loggedOut.body.contains("You're not logged in"))
            #expect(loggedOut.body.contains("Log in with Kinship"))
            #expect(loggedOut.body.contains(#"id="open-picker" class="button" disabled"#))
            #expect(try await browser.get("/sample/friends.json").status == .unauthorized)

            let home = try await browser.sampleLogIn(server, untick: ["email"])
            #expect(home.body.contains("You're logged in as Ada Lovelace"))
            #expect(home.body.contains("Email not shared"))
            #expect(home.body.contains("/sample/login?ask=email"))
            let reask = try await browser.get("/sample/login?ask=email")
            let dialog = try #require(reask.location)
            #expect(dialog.contains("auth_type=rerequest") && dialog.contains("scope=email") && dialog.contains("code_challenge_method=S256"))
            let withEmail = try await browser.finishSampleLogin(server, dialog: dialog, untick: [])
            #expect(withEmail.body.contains("ada@example.com"))
            #expect(!withEmail.body.contains("Email not shared"))

            let all = try await browser.json("/sample/friends.json?sort=last")
            #expect((all["sections"] as? [[String: Any]])?.map { $0["title"] as? String } == ["H", "Z"])
            #expect(all["total"] as? Int == 2)
            for search in ["zw", "zhang", "张"] {
                let found = try await browser.json("/sample/friends.json?q=" + FormParameters.encode(search))
                let names = (found["sections"] as? [[String: Any]])?.flatMap { ($0["friends"] as? [[String: Any]]) ?? [] }.map {
                    $0["name"] as? String
                }
                #expect(names == ["张伟"], "search \(search)")
            }
        }
    }

    @Test(
        "settings: revoke user_friends and the picker explains; a forged form changes nothing; remove app logs out",
        arguments: TestEngine.enabled
    )
    func settings(engine: TestEngine) async throws {
        try await withLiveServer(engine, builtInApps: [.sample]) { server in
            _ = try await server.makeUser()
            let browser = server.browser()
            _ = try await browser.sampleLogIn(server, untick: [])
            let settings = try await browser.get("/sample/settings")
            #expect(settings.body.contains("Your friends list") || settings.body.contains("friend"))
            let formToken = try #require(settings.form(action: "/sample/logout")?.fields.first { $0.name == "form_token" }?.value)

            let forged = try await browser.post("/sample/settings/revoke", form: ["form_token": "forged", "permission": "user_friends"])
            #expect(forged.location == "/sample")
            #expect(try await browser.get("/sample").body.contains("That form expired"))
            let before = try await browser.json("/sample/friends.json")
            #expect((before["problem"] as? [String: Any])?["title"] as? String == "No friends here yet", "user_friends is still granted")

            let revoked = try await browser.post("/sample/settings/revoke", form: ["form_token": formToken, "permission": "user_friends"])
            #expect(revoked.location == "/sample/settings?revoked=user_friends")
            #expect(try await browser.get("/sample/settings?revoked=user_friends").body.contains("can no longer see"))
            let picker = try await browser.json("/sample/friends.json")
            let problem = try #require(picker["problem"] as? [String: Any])
            #expect((problem["message"] as? String)?.contains("friends list") == true)
            #expect((problem["action"] as? [String: Any])?["href"] as? String == "/sample/login?ask=user_friends")

            #expect(try await browser.post("/sample/remove", form: ["form_token": formToken]).location == "/sample")
            let after = try await browser.get("/sample")
            #expect(after.body.contains("You're not logged in"))
            #expect(after.body.contains("Kinship Sample was removed"))
            let ada = try #require(try await server.platform.users.find(login: "ada@example.com"))
            #expect(try await server.platform.authorizations.active(userID: ada.id, appID: BuiltInApp.sample.id) == nil)
        }
    }

    @Test(
        "the platform's deauthorize callback logs the person out of the sample at once; a forged one changes nothing",
        arguments: TestEngine.enabled
    )
    func deauthorizeCallback(engine: TestEngine) async throws {
        try await withLiveServer(engine, builtInApps: [.sample], configure: { $0.callbacks.pollInterval = 0.05 }) { server in
            let ada = try await server.makeUser()
            let browser = server.browser()
            #expect(try await browser.sampleLogIn(server, untick: []).body.contains("You're logged in as"))

            let forged = SignedRequest(issuedAt: server.clock.now, userID: ada.id).signed(with: "not the signing secret")
            let refused = try await server.browser().post("/sample/deauthorize", form: ["signed_request": forged])
            #expect(refused.status == .badRequest)
            #expect(try await browser.get("/sample").body.contains("You're logged in as"))

            let authorization = try #require(try await server.platform.authorizations.active(userID: ada.id, appID: BuiltInApp.sample.id))
            try await server.platform.authorizations.revokeAll(authorization.id, notifyingApp: true)
            let delivered = await eventually {
                (try? await server.platform.callbacks.recent(appID: BuiltInApp.sample.id).first?.status) == .delivered
            }
            #expect(delivered)
            let page = try await browser.get("/sample")
            #expect(page.body.contains("You removed Kinship Sample from your Kinship account"), "the callback, not a failed Graph call, logged out")
            #expect(page.body.contains("You're not logged in"))
        }
    }

    @Test("errors a person understands: Cancel, a stale state, an app removed elsewhere, an expired token", arguments: TestEngine.enabled)
    func errors(engine: TestEngine) async throws {
        try await withLiveServer(engine, builtInApps: [.sample], configure: { $0.shortTokenLifetime = 5 }) { server in
            let ada = try await server.makeUser()
            let browser = server.browser()
            _ = try await browser.logIn("ada@example.com")
            let start = try #require(try await browser.get("/sample/login").location)
            let consent = try await browser.get(Self.pathAndQuery(start))
            let cancelled = try await browser.submit(consent, action: "/dialog/oauth/confirm", button: ("action", "cancel"))
            _ = try await browser.get(Self.pathAndQuery(try #require(cancelled.location)))
            let page = try await browser.get("/sample")
            #expect(page.body.contains("Login cancelled") && page.body.contains("Try again"))

            _ = try await browser.get("/sample/callback?code=kac_forged&state=forged")
            #expect(try await browser.get("/sample").body.contains("That login link is stale"))

            let fresh = try await browser.sampleLogIn(server, untick: [])
            #expect(fresh.body.contains("You're logged in as"), "the 5-second token is still good right after the login")
            server.clock.advance(by: 6)
            #expect(try await browser.get("/sample").body.contains("Your login expired"))

            _ = try await browser.sampleLogIn(server, untick: [])
            let authorization = try #require(try await server.platform.authorizations.active(userID: ada.id, appID: BuiltInApp.sample.id))
            try await server.platform.authorizations.revokeAll(authorization.id, notifyingApp: false)
            let removed = try await browser.get("/sample")
            #expect(removed.body.contains("Kinship Sample was removed") && removed.body.contains("You're not logged in"))
        }
    }

    static func pathAndQuery(_ url: String) -> String {
        guard let components = URLComponents(string: url), components.host != nil else { return url }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }
}

extension Browser {
    /// Logs in to the platform as Ada, starts the sample app's login, consents (unticking what is
    /// asked) and follows the redirects home.
    func sampleLogIn(_ server: LiveServer, untick: [String]) async throws -> Page {
        _ = try await logIn("ada@example.com")
        let dialog = try #require(try await get("/sample/login").location)
        #expect(dialog.contains("client_id=\(BuiltInApp.sample.id)"))
        return try await finishSampleLogin(server, dialog: dialog, untick: untick)
    }

    func finishSampleLogin(_ server: LiveServer, dialog: String, untick: [String]) async throws -> Page {
        let consent = try await get(SampleAppTests.pathAndQuery(dialog))
        let answer = try await submit(consent, action: "/dialog/oauth/confirm", button: ("action", "continue"), untick: untick)
        let callback = try #require(answer.location)
        #expect(callback.contains("/sample/callback?code="))
        let back = try await get(SampleAppTests.pathAndQuery(callback))
        #expect(back.location == "/sample")
        return try await get("/sample")
    }

    func json(_ uri: String) async throws -> [String: Any] {
        let page = try await get(uri)
        return (try? JSONSerialization.jsonObject(with: Data(page.body.utf8))) as? [String: Any] ?? [:]
    }
}
