import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import NIOCore
import Testing

@testable import KinshipServer

@Suite("Graph API: friends, feed, batch", .timeLimit(.minutes(3)))
struct GraphFriendsFeedTests {
    private func walk(
        _ server: LiveServer,
        token: String,
        start: String,
        cursor: String
    ) async throws -> (ids: [String], names: [String], totals: Set<Int>) {
        var ids: [String] = []
        var names: [String] = []
        var totals = Set<Int>()
        var next: String? = start
        var pages = 0
        while let url = next, pages < 100 {
            let path = url.replacingOccurrences(of: #"^https?://[^/]+"#, with: "", options: .regularExpression)
            let (status, page) = try await server.graph(path, token: token)
            #expect(status == .ok)
            let data = page["data"] as? [[String: Any]] ?? []
            let pageIDs = data.compactMap { $0["id"] as? String }
            ids += cursor == "after" ? pageIDs : []
            ids = cursor == "after" ? ids : pageIDs + ids
            names = cursor == "after" ? names + data.compactMap { $0["name"] as? String } : data.compactMap { $0["name"] as? String } + names
            totals.insert(((page["summary"] as? [String: Any])?["total_count"] as? Int) ?? -1)
            next = (page["paging"] as? [String: Any])?[cursor == "after" ? "next" : "previous"] as? String
            pages += 1
        }
        return (ids, names, totals)
    }

    @Test("paging 250 friends 25 at a time lists each once, by name; total_count counts every friend", arguments: TestEngine.enabled)
    func paging(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let friends = try await server.makeFriends(of: ada, app: app, count: 250, prefix: "Friend")
            let holdout = try await server.makeUser(name: "Aaron Holdout", email: "holdout@example.com", username: nil)
            try await server.platform.friends.befriend(ada.id, holdout.id)
            _ = try await server.platform.authorizations.recordConsent(userID: holdout.id, appID: app.id, granted: [], declined: [.userFriends])
            let token = try await server.logInAndGetToken(app, scope: [.userFriends])

            let forward = try await walk(server, token: token, start: "/me/friends?limit=25", cursor: "after")
            #expect(forward.ids.count == 250)
            #expect(Set(forward.ids) == Set(friends.map(\.id)), "every friend exactly once; the holdout is absent")
            #expect(forward.names == forward.names.sorted(), "ordered by name")
            #expect(forward.totals == [251])

            let (_, last) = try await server.graph("/me/friends?limit=25&after=\(try #require(lastCursor(server, token: token)))", token: token)
            let previous = ((last["paging"] as? [String: Any])?["previous"] as? String) ?? ""
            #expect(!previous.isEmpty)
            let (_, empty) = try await server.graph("/me/friends?limit=5&after=garbage", token: token)
            #expect(graphError(empty).code == 100)
        }
    }

    private func lastCursor(_ server: LiveServer, token: String) async throws -> String? {
        let (_, page) = try await server.graph("/me/friends?limit=25", token: token)
        return ((page["paging"] as? [String: Any])?["cursors"] as? [String: String])?["after"]
    }

    @Test("pages stay stable while friendships change between calls", arguments: TestEngine.enabled)
    func stability(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let friends = try await server.makeFriends(of: ada, app: app, count: 40, prefix: "Pal")
            let token = try await server.logInAndGetToken(app, scope: [.userFriends])
            var seen: [String] = []
            let (_, first) = try await server.graph("/me/friends?limit=10", token: token)
            seen += (first["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            var next = (first["paging"] as? [String: Any])?["next"] as? String
            let newcomers = try await server.makeFriends(of: ada, app: app, count: 3, prefix: "Aardvark")
            let removable = friends.filter { !seen.contains($0.id) }.prefix(2)
            for friend in removable {
                try await server.platform.database.write { sql in
                    try await sql.raw("DELETE FROM friendships WHERE user_id = \(bind: ada.id) AND friend_id = \(bind: friend.id)").run()
                }
            }
            while let url = next {
                let path = url.replacingOccurrences(of: #"^https?://[^/]+"#, with: "", options: .regularExpression)
                let (_, page) = try await server.graph(path, token: token)
                seen += (page["data"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                next = (page["paging"] as? [String: Any])?["next"] as? String
            }
            #expect(Set(seen).count == seen.count, "no duplicates")
            let expected = Set(friends.map(\.id)).subtracting(removable.map(\.id))
            #expect(expected.isSubset(of: Set(seen)), "no remaining friend skipped")
            #expect(Set(newcomers.map(\.id)).isDisjoint(with: Set(seen)), "newcomers sorting before the cursor are not squeezed in")
        }
    }

    @Test("friends need user_friends", arguments: TestEngine.enabled)
    func friendsPermission(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.userFriends], untick: [.userFriends])
            let (status, json) = try await server.graph("/me/friends", token: token)
            #expect(status == .forbidden)
            #expect((200...299).contains(graphError(json).code ?? 0))
            #expect(((json["error"] as? [String: Any])?["message"] as? String)?.contains("user_friends") == true)
        }
    }

    @Test("the feed: publish_actions on its own consent step, duplicates refused, reading needs user_posts", arguments: TestEngine.enabled)
    func feed(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let readOnly = try await server.logInAndGetToken(app, scope: [.email])
            let (deniedStatus, denied) = try await server.graph("/me/feed", token: readOnly, method: .post, form: ["message": "Hello"])
            #expect(deniedStatus == .forbidden)
            #expect((200...299).contains(graphError(denied).code ?? 0))

            let browser = server.browser()
            let first = try await server.consentPage(browser, app, scope: [.userPosts, .publishActions], pkce: .make())
            #expect(first.form(action: "/dialog/oauth/confirm")?.permissionCheckboxes == ["user_posts"], "read permissions first")
            let second = try await browser.submit(first, action: "/dialog/oauth/confirm", button: ("action", "continue"))
            #expect(second.status == .ok)
            #expect(second.form(action: "/dialog/oauth/confirm")?.permissionCheckboxes == ["publish_actions"], "publish on its own step")
            #expect(second.body.contains("would also like to post for you"))

            let token = try await server.logInAndGetToken(app, scope: [.userPosts, .publishActions])
            let (status, posted) = try await server.graph(
                "/me/feed",
                token: token,
                method: .post,
                form: ["message": "Hello from Kinship", "link": "https://example.com/"]
            )
            #expect(status == .ok)
            #expect((posted["id"] as? String)?.contains("_") == true)
            let (dupStatus, duplicate) = try await server.graph("/me/feed", token: token, method: .post, form: ["message": "Hello from Kinship"])
            #expect(dupStatus == .badRequest)
            #expect(graphError(duplicate).code == 506)
            _ = try await server.graph("/me/feed", token: token, method: .post, form: ["message": "Second"])
            let (feedStatus, feed) = try await server.graph("/me/feed", token: token)
            #expect(feedStatus == .ok)
            #expect((feed["data"] as? [[String: Any]])?.compactMap { $0["message"] as? String } == ["Second", "Hello from Kinship"])
            let otherApp = try await server.makeApp(name: "Other")
            let otherToken = try await server.logInAndGetToken(otherApp, scope: [.email])
            let (noReaderStatus, noReader) = try await server.graph("/me/feed", token: otherToken)
            #expect(noReaderStatus == .forbidden)
            #expect((200...299).contains(graphError(noReader).code ?? 0))
            let (emptyStatus, _) = try await server.graph("/me/feed", token: token, method: .post, form: ["message": "  "])
            #expect(emptyStatus == .badRequest)
        }
    }

    @Test("a batch answers each part on its own", arguments: TestEngine.enabled)
    func batch(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email])
            let parts =
                #"[{"method":"GET","relative_url":"me?fields=name"},{"method":"GET","relative_url":"/v1.0/me/friends"},{"method":"GET","relative_url":"me?access_token=kat_bad"},{"method":"GET","relative_url":"me/permissions"}]"#
            let response = try await server.client.executeRequest(
                uri: "/",
                method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded", .authorization: "Bearer \(token)"],
                body: ByteBuffer(string: (["batch": parts] as FormParameters).formEncoded)
            )
            #expect(response.status == .ok)
            let answers = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            #expect(answers.map { $0["code"] as? Int } == [200, 403, 401, 200])
            let body = try #require((answers[0]["body"] as? String)?.data(using: .utf8))
            #expect((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["name"] as? String == "Ada Lovelace")
            #expect((answers[0]["headers"] as? [[String: String]])?.contains { $0["name"] == "Content-Type" } == true)

            let tooMany = "[" + Array(repeating: #"{"method":"GET","relative_url":"me"}"#, count: 51).joined(separator: ",") + "]"
            let (status, json) = try await server.postForm("/", ["batch": tooMany, "access_token": token])
            #expect(status == .badRequest)
            #expect(graphError(json).code == 100)
            let (badStatus, _) = try await server.postForm("/", ["batch": "not json"])
            #expect(badStatus == .badRequest)
        }
    }
}
