import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

@Suite("Deleting an account", .timeLimit(.minutes(3)))
struct AccountDeletionTests {
    @Test(
        "the password is required; then everything of the person goes, each app gets its data deletion callback, and the email is free",
        arguments: TestEngine.enabled
    )
    func delete(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.callbacks.pollInterval = 0.05 }) { server in
            try await withCallbackReceiver { receiver in
                let (app, signingSecret) = try await makeAppWithCallbacks(server, baseURL: receiver.baseURL)
                let ada = try await server.makeUser()
                let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
                _ = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
                try await server.platform.friends.befriend(ada.id, lin.id)
                let (made, _) = try await server.platform.apps.create(
                    name: "Ada's Notes",
                    redirectURIs: [loopbackRedirect],
                    isConfidential: false,
                    ownerID: ada.id
                )
                let token = try await server.logInAndGetToken(app, scope: [.publishActions])
                #expect(try await server.graph("/me/feed", token: token, method: .post, form: ["message": "Hello"]).0 == .ok)
                let browser = server.browser()
                #expect(try await browser.logIn("ada").status == .seeOther)
                let graceBrowser = server.browser()
                #expect(try await graceBrowser.logIn("grace").status == .seeOther)
                let graceCSRF = try #require(try await graceBrowser.get("/account/friends").csrfToken)
                _ = try await graceBrowser.post("/account/friends", form: ["csrf_token": graceCSRF, "action": "request", "user_id": ada.id])

                let explanation = try await browser.get("/account/delete")
                #expect(explanation.body.contains("your friendship and every friend request") && explanation.body.contains("Demo"))
                #expect(
                    explanation.body.contains("the apps you made (Ada&#39;s Notes) stay")
                        || explanation.body.contains("the apps you made (Ada's Notes) stay")
                )
                let csrf = try #require(explanation.csrfToken)
                let wrong = try await browser.post("/account/delete", form: ["csrf_token": csrf, "password": "not it"])
                #expect(wrong.status == .unauthorized)
                #expect(try await server.platform.users.find(id: ada.id) != nil)

                let done = try await browser.post("/account/delete", form: ["csrf_token": csrf, "password": testPassword])
                #expect(done.status == .ok && done.body.contains("Your account is deleted"))
                #expect(try await server.platform.users.find(id: ada.id) == nil)
                #expect(try await browser.get("/account").location?.hasPrefix("/login") == true)
                #expect((try await server.graph("/me", token: token).1["error"] as? [String: Any])?["code"] as? Int == 190)
                #expect(try await server.platform.friends.friendIDs(of: lin.id).isEmpty)
                let kept = try await server.platform.apps.find(id: made.id)
                #expect(kept != nil && kept?.ownerID == nil, "the apps the person made stay, for the administrators")
                #expect(
                    try await server.platform.database.read { sql in
                        try await sql.raw("SELECT COUNT(*) AS n FROM friend_requests").first(decodingColumn: "n", as: Int.self)
                    } == 0
                )
                #expect(
                    try await server.platform.database.read { sql in
                        try await sql.raw("SELECT COUNT(*) AS n FROM posts").first(decodingColumn: "n", as: Int.self)
                    } == 0
                )

                #expect(await eventually { receiver.received.count == 1 })
                #expect(receiver.received.first?.path == "/data-deletion")
                #expect(try SignedRequest(verifying: receiver.received[0].signedRequest, secret: signingSecret).userID == ada.id)

                #expect(try await server.browser().signUp(name: "Ada Again", email: "ada@example.com").location == "/account?notice=welcome")
            }
        }
    }

    @Test("deleting from two browsers at once deletes once and sends each callback once", arguments: TestEngine.enabled)
    func concurrent(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.callbacks.pollInterval = 3_600 }) { server in
            let (app, _) = try await makeAppWithCallbacks(server, baseURL: "http://127.0.0.1:9")
            let ada = try await server.makeUser()
            _ = try await server.logInAndGetToken(app, scope: [])
            var browsers: [(Browser, String)] = []
            for _ in 0..<4 {
                let browser = server.browser()
                #expect(try await browser.logIn("ada").status == .seeOther)
                browsers.append((browser, try #require(try await browser.get("/account/delete").csrfToken)))
            }
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for (browser, csrf) in browsers {
                    group.addTask { try await browser.post("/account/delete", form: ["csrf_token": csrf, "password": testPassword]).status }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.contains(.ok))
            #expect(statuses.allSatisfy { $0 == .ok || $0 == .seeOther }, "\(statuses)")
            #expect(try await callbacks(of: ada.id, server.platform).count == 1)
        }
    }
}
