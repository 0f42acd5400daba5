import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// The error object of a Graph answer.
func graphError(_ json: [String: Any]) -> (code: Int?, subcode: Int?, type: String?) {
    let error = json["error"] as? [String: Any]
    return (error?["code"] as? Int, error?["error_subcode"] as? Int, error?["type"] as? String)
}

@Suite("Graph API: profile and permissions", .timeLimit(.minutes(3)))
struct GraphProfileTests {
    private func makeAda(_ server: LiveServer) async throws -> UserRecord {
        try await server.platform.users.create(
            NewUser(
                name: "Ada Lovelace",
                email: "ada@example.com",
                password: testPassword,
                username: "ada",
                gender: "female",
                locale: "en_GB",
                birthday: "1815-12-10",
                hometown: "London",
                location: "Marylebone"
            )
        )
    }

    @Test("fields are gated by permission; unknown fields and bad tokens are errors", arguments: TestEngine.enabled)
    func fieldGating(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await makeAda(server)
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email, .userBirthday], untick: [.email])

            let (status, me) = try await server.graph("/me", token: token)
            #expect(status == .ok)
            #expect(me.keys.sorted() == ["id", "name"])
            #expect(me["id"] as? String == ada.id)

            let fields =
                "id,name,first_name,last_name,short_name,name_format,link,username,gender,locale,age_range,picture,email,birthday,hometown,location"
            let (_, full) = try await server.graph("/v1.0/me?fields=\(fields)", token: token)
            #expect(full["first_name"] as? String == "Ada")
            #expect(full["short_name"] as? String == "Ada")
            #expect(full["name_format"] as? String == "{first} {last}")
            #expect(full["birthday"] as? String == "12/10/1815")
            #expect((full["age_range"] as? [String: Int]) == ["min": 21])
            #expect(full["email"] == nil, "email was declined")
            #expect(full["hometown"] == nil && full["location"] == nil, "not granted")
            let picture = try #require((full["picture"] as? [String: Any])?["data"] as? [String: Any])
            #expect(picture["width"] as? Int == 50)
            #expect(picture["is_silhouette"] as? Bool == false)
            #expect((picture["url"] as? String)?.contains("/pictures/\(ada.id)") == true)

            let (queryStatus, byQuery) = try await server.getJSON("/me?fields=name&access_token=\(token)")
            #expect(queryStatus == .ok)
            #expect(byQuery["name"] as? String == "Ada Lovelace")

            let (unknownStatus, unknown) = try await server.graph("/me?fields=name,shoe_size", token: token)
            #expect(unknownStatus == .badRequest)
            #expect(graphError(unknown).code == 100)
            let (syntaxStatus, _) = try await server.graph("/me?fields=na(me", token: token)
            #expect(syntaxStatus == .badRequest)

            let (badStatus, bad) = try await server.graph("/me", token: "kat_forged")
            #expect(badStatus == .unauthorized)
            #expect(graphError(bad).code == 190)
            #expect(graphError(bad).subcode == 467)
            #expect(graphError(bad).type == "OAuthException")
            let (noneStatus, none) = try await server.graph("/me", token: nil)
            #expect(noneStatus == .unauthorized)
            #expect(graphError(none).code == 190)
            let (pathStatus, path) = try await server.graph("/me/shoes", token: token)
            #expect(pathStatus == .notFound)
            #expect(graphError(path).code == 100)
        }
    }

    @Test("revoking one permission hides what it guards; the permission list says so", arguments: TestEngine.enabled)
    func revokeOne(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await makeAda(server)
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email, .userFriends])
            #expect(try await server.graph("/me?fields=email", token: token).1["email"] as? String == "ada@example.com")

            let (listStatus, list) = try await server.graph("/me/permissions", token: token)
            #expect(listStatus == .ok)
            let statuses = (list["data"] as? [[String: String]] ?? []).reduce(into: [:]) { $0[$1["permission"]!] = $1["status"] }
            #expect(statuses == ["public_profile": "granted", "email": "granted", "user_friends": "granted"])

            let (deleteStatus, deleted) = try await server.graph("/me/permissions/email", token: token, method: .delete)
            #expect(deleteStatus == .ok)
            #expect(deleted["success"] as? Bool == true)
            #expect(try await server.graph("/me?fields=email,name", token: token).1["email"] == nil)
            #expect(!(try await server.debugToken(token, app: app).scopes.contains(.email)))
            let (_, one) = try await server.graph("/me/permissions/email", token: token)
            #expect((one["data"] as? [[String: String]]) == [["permission": "email", "status": "declined"]])

            let (profileStatus, profile) = try await server.graph("/me/permissions/public_profile", token: token, method: .delete)
            #expect(profileStatus == .badRequest)
            #expect(graphError(profile).code == 100)
        }
    }

    @Test("revoking the whole login ends every token (190/458) and the next login asks everything again", arguments: TestEngine.enabled)
    func revokeAll(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await makeAda(server)
            let app = try await server.makeApp()
            let browser = server.browser()
            let token = try await server.logInAndGetToken(app, scope: [.email, .userFriends], browser: browser)
            let second = try await server.logInAndGetToken(app, scope: [.email], browser: browser)

            let (status, _) = try await server.graph("/me/permissions", token: token, method: .delete)
            #expect(status == .ok)
            for revoked in [token, second] {
                let (meStatus, me) = try await server.graph("/me", token: revoked)
                #expect(meStatus == .unauthorized)
                #expect(graphError(me).code == 190)
                #expect(graphError(me).subcode == 458)
                #expect((me["error"] as? [String: Any])?["error_user_msg"] != nil)
            }
            let consent = try await server.consentPage(browser, app, scope: [.email, .userFriends], pkce: .make())
            #expect(consent.form(action: "/dialog/oauth/confirm")?.permissionCheckboxes == ["email", "user_friends"])
        }
    }

    @Test("another person: public fields only, and only to friends or people on the same app", arguments: TestEngine.enabled)
    func otherPeople(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await makeAda(server)
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            let alan = try await server.makeUser(name: "Alan Turing", email: "alan@example.com", username: "alan")
            let app = try await server.makeApp()
            try await server.platform.friends.befriend(ada.id, grace.id)
            let token = try await server.logInAndGetToken(app, scope: [.email])

            let (status, friend) = try await server.graph("/\(grace.id)?fields=id,name,first_name,email,username", token: token)
            #expect(status == .ok)
            #expect(friend["first_name"] as? String == "Grace")
            #expect(friend["email"] == nil && friend["username"] == nil, "private fields are not shown to others")

            let (strangerStatus, stranger) = try await server.graph("/\(alan.id)", token: token)
            #expect(strangerStatus == .notFound)
            #expect(graphError(stranger).code == 803)
            _ = try await server.logInAndGetToken(app, scope: [], browser: nil, login: "alan@example.com")
            let (sameAppStatus, _) = try await server.graph("/\(alan.id)", token: token)
            #expect(sameAppStatus == .ok, "people who use the same app see each other's public profile")
            #expect(try await server.graph("/123456789", token: token).0 == .notFound)
        }
    }
}

@Suite("Graph API: throttling", .timeLimit(.minutes(3)))
struct GraphThrottleTests {
    @Test("a person over the per-minute limit gets 429 with code 17", arguments: TestEngine.enabled)
    func throttled(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.graphLimits = .init(perUserPerMinute: 3, perAppPerMinute: 100) }) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [])
            var statuses: [HTTPResponse.Status] = []
            var last: [String: Any] = [:]
            for _ in 0..<4 {
                let (status, json) = try await server.graph("/me", token: token)
                statuses.append(status)
                last = json
            }
            #expect(statuses == [.ok, .ok, .ok, .tooManyRequests])
            #expect(graphError(last).code == 17)
        }
    }

    @Test("limits count per minute window, per person and per app")
    func windows() throws {
        let clock = ManualClock(now: 60)
        let throttle = GraphThrottle(limits: .init(perUserPerMinute: 2, perAppPerMinute: 3), clock: clock)
        try throttle.admit(userID: "a", appID: "x")
        try throttle.admit(userID: "a", appID: "x")
        #expect(throws: GraphError.self) { try throttle.admit(userID: "a", appID: "x") }
        #expect(throws: GraphError.self) { try throttle.admit(userID: "b", appID: "x") }
        clock.advance(by: 60)
        try throttle.admit(userID: "a", appID: "x")
        try throttle.admit(userID: "b", appID: "y")
    }
}
