import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import NIOCore
import Testing

@Suite("Account pages", .timeLimit(.minutes(3)))
struct AccountPagesTests {
    @Test("sign up: CSRF, password rules, mismatched passwords, a taken email, then logged in", arguments: TestEngine.enabled)
    func signUp(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let browser = server.browser()
            let page = try await browser.get("/signup")
            #expect(page.body.contains("At least 8 characters"))
            let token = try #require(page.csrfToken)

            let forged = try await browser.post(
                "/signup",
                form: [
                    "csrf_token": "forged", "name": "Lin", "email": "lin@example.com",
                    "password": testPassword, "password_again": testPassword,
                ]
            )
            #expect(forged.status == .forbidden)
            let short = try await browser.post(
                "/signup",
                form: [
                    "csrf_token": token, "name": "Lin", "email": "lin@example.com",
                    "password": "short", "password_again": "short",
                ]
            )
            #expect(short.status == .badRequest)
            #expect(short.body.contains("8 to 72 bytes"))
            #expect(short.body.contains(#"value="lin@example.com""#), "what was typed is kept")
            let mismatch = try await browser.post(
                "/signup",
                form: [
                    "csrf_token": token, "name": "Lin", "email": "lin@example.com",
                    "password": testPassword, "password_again": testPassword + "!",
                ]
            )
            #expect(mismatch.body.contains("not the same"))
            let taken = try await browser.post(
                "/signup",
                form: [
                    "csrf_token": token, "name": "Ada", "email": "ADA@example.com",
                    "password": testPassword, "password_again": testPassword,
                ]
            )
            #expect(taken.body.contains("exists already"))
            #expect(try await server.platform.users.list().count == 1, "nothing was stored by the refused forms")

            let done = try await browser.post(
                "/signup",
                form: [
                    "csrf_token": token, "name": "Lin Wei", "email": "lin@example.com",
                    "password": testPassword, "password_again": testPassword,
                ]
            )
            #expect(done.status == .seeOther)
            #expect(done.location == "/account?notice=welcome")
            let profile = try await browser.get("/account?notice=welcome")
            #expect(profile.body.contains("Welcome to Kinship"))
            #expect(profile.body.contains(#"value="Lin Wei""#))
            let created = try #require(try await server.platform.users.find(login: "lin@example.com"))
            #expect(created.firstName == "Lin" && created.lastName == "Wei")
        }
    }

    @Test("sign-ups from one address are limited per minute", arguments: TestEngine.enabled)
    func signUpLimit(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.signupsPerAddressPerMinute = 1 }) { server in
            let browser = server.browser()
            let token = try #require(try await browser.get("/signup").csrfToken)
            var statuses: [HTTPResponse.Status] = []
            for index in 1...3 {
                statuses.append(
                    try await browser.post(
                        "/signup",
                        form: [
                            "csrf_token": token, "name": "Person \(index)",
                            "email": "person\(index)@example.com", "password": testPassword, "password_again": testPassword,
                        ]
                    ).status
                )
                browser.setCookie("kinship_session", nil)
            }
            #expect(statuses == [.seeOther, .tooManyRequests, .tooManyRequests])
            #expect(try await server.platform.users.list().count == 1)
        }
    }

    @Test("log in: wrong password, throttling, next= stays on this site, log out ends the session", arguments: TestEngine.enabled)
    func logIn(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.loginLimits = .init(perAccount: 2, perAddress: 50) }) { server in
            _ = try await server.makeUser()
            let denied = try await server.browser().get("/account/friends")
            #expect(denied.status == .seeOther)
            #expect(denied.location == "/login?next=%2Faccount%2Ffriends")

            for hostile in ["//evil.example/x", "https://evil.example/", "/\\evil.example", "javascript:alert(1)"] {
                let browser = server.browser()
                let response = try await browser.logIn("ada@example.com", next: hostile)
                #expect(response.location == "/account", "next=\(hostile) must not leave the site")
            }
            let browser = server.browser()
            #expect(try await browser.logIn("ada@example.com", next: "/account/apps").location == "/account/apps")
            #expect(try await browser.get("/account/apps").status == .ok)
            let csrf = try #require(try await browser.get("/account").csrfToken)
            #expect(try await browser.post("/logout", form: ["csrf_token": csrf]).location == "/login")
            #expect(try await browser.get("/account").status == .seeOther, "logged out")

            let stranger = server.browser()
            #expect(try await stranger.logIn("ada@example.com", password: "wrong").status == .unauthorized)
            #expect(try await stranger.logIn("ada@example.com", password: "wrong").status == .unauthorized)
            let throttled = try await stranger.logIn("ada@example.com")
            #expect(throttled.status == .tooManyRequests)
            #expect(throttled.headers[.retryAfter] != nil)
        }
    }

    @Test("profile: fields saved, a bad birthday refused, pictures checked", arguments: TestEngine.enabled)
    func profile(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let browser = server.browser()
            let accessToken = try await server.logInAndGetToken(app, scope: [.userBirthday], browser: browser)
            #expect(try await server.graph("/me", token: accessToken).1["name"] as? String == "Ada Lovelace")
            let page = try await browser.get("/account")
            let token = try #require(page.csrfToken)
            let saved = try await browser.post(
                "/account/profile",
                form: [
                    "csrf_token": token, "name": "Augusta Ada King",
                    "first_name": "", "last_name": "", "birthday": "1815-12-10", "hometown": "London", "location": "",
                ]
            )
            #expect(saved.location == "/account?notice=saved")
            let stored = try #require(try await server.platform.users.find(id: ada.id))
            #expect(stored.name == "Augusta Ada King" && stored.firstName == "Augusta" && stored.middleName == "Ada" && stored.lastName == "King")
            #expect(stored.birthday == "1815-12-10" && stored.hometown == "London" && stored.location == nil)
            let (_, me) = try await server.graph("/me?fields=name,middle_name,birthday", token: accessToken)
            #expect(me["name"] as? String == "Augusta Ada King", "a token checked before the change sees the new profile")
            #expect(me["middle_name"] as? String == "Ada" && me["birthday"] as? String == "12/10/1815")
            let refused = try await browser.post("/account/profile", form: ["csrf_token": token, "name": "Ada", "birthday": "1815-02-30"])
            #expect(refused.status == .badRequest)
            #expect(refused.body.contains("is not a date"))
            #expect(try await server.platform.users.find(id: ada.id)?.name == "Augusta Ada King", "a refused change changes nothing")

            let picture = try #require(page.csrfToken)
            let png = Data(
                [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 1, 44, 0, 0, 0, 150, 8, 2, 0, 0, 0]
            )
            let uploaded = try await browser.upload("/account/picture", csrf: picture, file: png)
            #expect(uploaded.location == "/account?notice=picture")
            #expect(try await browser.get("/account").body.contains("&amp;v="), "the page shows the new picture, not a cached one")
            #expect(
                try await browser.upload("/account/picture", csrf: picture, file: png + Data(count: 1024 * 1024)).location
                    == "/account?notice=picture",
                "a 1 MiB picture is under the limit"
            )
            #expect(try await browser.upload("/account/picture", csrf: picture, file: Data("GIF89a".utf8)).body.contains("must be a PNG or a JPEG"))
            #expect(try await browser.upload("/account/picture", csrf: picture, file: Data()).body.contains("Choose a PNG or JPEG file first"))
            #expect(try await browser.upload("/account/picture", csrf: "forged", file: png).status == .forbidden)
            let huge = try await browser.upload("/account/picture", csrf: picture, file: png + Data(count: 3 * 1024 * 1024))
            #expect(huge.status == .contentTooLarge)
            #expect(huge.body.contains("larger than 2 MiB"))
            let garbled = try await browser.send(
                "/account/picture",
                method: .post,
                headers: [.contentType: "multipart/form-data; boundary=xyz"],
                body: ByteBuffer(string: "--xyz\r\nnonsense")
            )
            #expect(garbled.status == .badRequest)
            #expect(garbled.body.contains("could not be read"))
        }
    }

    @Test("friends: search, request, accept, decline, withdraw, unfriend; forged forms change nothing", arguments: TestEngine.enabled)
    func friends(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            let alan = try await server.makeUser(name: "Alan Turing", email: "alan@example.com", username: "alan")
            let adaBrowser = server.browser()
            _ = try await adaBrowser.logIn("ada@example.com")
            let search = try await adaBrowser.get("/account/friends?q=HOP")
            #expect(search.body.contains("Grace Hopper"))
            #expect(!search.body.contains("Alan Turing"))
            #expect(try await adaBrowser.get("/account/friends?q=%25").body.contains("Nobody with that name"), "% is a character, not a wildcard")
            let token = try #require(search.csrfToken)

            #expect(
                try await adaBrowser.post("/account/friends", form: ["csrf_token": "forged", "action": "request", "user_id": grace.id]).status
                    == .forbidden
            )
            #expect(try await server.platform.friends.outgoingRequests(of: ada.id).isEmpty)
            let sent = try await adaBrowser.post(
                "/account/friends",
                form: ["csrf_token": token, "action": "request", "user_id": grace.id, "q": "hop"]
            )
            #expect(sent.location == "/account/friends?notice=requested&q=hop")
            _ = try await adaBrowser.post("/account/friends", form: ["csrf_token": token, "action": "request", "user_id": alan.id])
            _ = try await adaBrowser.post("/account/friends", form: ["csrf_token": token, "action": "cancel", "user_id": alan.id])
            #expect(try await server.platform.friends.outgoingRequests(of: ada.id).map(\.toUserID) == [grace.id])
            #expect(
                try await adaBrowser.post("/account/friends", form: ["csrf_token": token, "action": "request", "user_id": ada.id]).status
                    == .badRequest
            )

            let graceBrowser = server.browser()
            _ = try await graceBrowser.logIn("grace@example.com")
            let incoming = try await graceBrowser.get("/account/friends")
            #expect(
                incoming.body.contains("Accept Ada Lovelace&#39;s friend request") || incoming.body.contains("Accept Ada Lovelace's friend request")
            )
            let graceToken = try #require(incoming.csrfToken)
            #expect(
                try await graceBrowser.post("/account/friends", form: ["csrf_token": graceToken, "action": "accept", "user_id": ada.id]).location
                    == "/account/friends?notice=accepted"
            )
            #expect(try await server.platform.friends.friendIDs(of: ada.id) == [grace.id])
            #expect(
                try await graceBrowser.post("/account/friends", form: ["csrf_token": graceToken, "action": "accept", "user_id": ada.id]).location
                    == "/account/friends?notice=gone",
                "answering twice is explained, not an error"
            )
            #expect(try await adaBrowser.get("/account/friends").body.contains("Your friends (1)"))

            _ = try await adaBrowser.post("/account/friends", form: ["csrf_token": token, "action": "unfriend", "user_id": grace.id])
            #expect(try await server.platform.friends.friendIDs(of: ada.id).isEmpty)
            _ = try await adaBrowser.post("/account/friends", form: ["csrf_token": token, "action": "request", "user_id": alan.id])
            let alanBrowser = server.browser()
            _ = try await alanBrowser.logIn("alan@example.com")
            let alanToken = try #require(try await alanBrowser.get("/account/friends").csrfToken)
            _ = try await alanBrowser.post("/account/friends", form: ["csrf_token": alanToken, "action": "decline", "user_id": ada.id])
            #expect(try await server.platform.friends.incomingRequests(for: alan.id).isEmpty)
            #expect(try await server.platform.friends.friendIDs(of: alan.id).isEmpty)
        }
    }

    @Test("apps you use: revoke one permission or the whole app, with the Graph API's effects", arguments: TestEngine.enabled)
    func apps(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp(name: "Photo Book")
            let browser = server.browser()
            let token = try await server.logInAndGetToken(app, scope: [.email, .userFriends], browser: browser)
            let page = try await browser.get("/account/apps")
            #expect(page.body.contains("Photo Book"))
            #expect(page.body.contains("Always shared"), "public_profile cannot be taken back alone")
            let csrf = try #require(page.csrfToken)

            #expect(
                try await browser.post("/account/apps", form: ["csrf_token": csrf, "app_id": app.id, "permission": "public_profile"]).status
                    == .badRequest
            )
            let revoked = try await browser.post("/account/apps", form: ["csrf_token": csrf, "app_id": app.id, "permission": "email"])
            #expect(revoked.location == "/account/apps?notice=revoked")
            let (_, me) = try await server.graph("/me?fields=id,email", token: token)
            #expect(me["email"] == nil, "the field is hidden as if never granted")
            #expect(try await server.debugToken(token, app: app).scopes == [.publicProfile, .userFriends])

            #expect(try await browser.post("/account/apps", form: ["csrf_token": csrf, "app_id": app.id]).location == "/account/apps?notice=removed")
            let (status, error) = try await server.graph("/me", token: token)
            #expect(status == .unauthorized)
            #expect((error["error"] as? [String: Any])?["error_subcode"] as? Int == 458)
            #expect(!(try await browser.get("/account/apps").body.contains("Photo Book")))
            #expect(try await browser.post("/account/apps", form: ["csrf_token": csrf, "app_id": app.id]).location == "/account/apps?notice=gone")
        }
    }
}

extension Page {
    /// The page's CSRF token: every form on an account page carries the same one.
    var csrfToken: String? {
        body.firstMatch(of: /name="csrf_token" value="([^"]*)"/).map { String($0.1) }
    }
}

extension Browser {
    /// Signs up on `/signup` with the test password and returns the answer to the form.
    func signUp(name: String, email: String) async throws -> Page {
        let token = try #require(try await get("/signup").csrfToken)
        return try await post(
            "/signup",
            form: [
                "csrf_token": token, "name": name, "email": email, "password": testPassword, "password_again": testPassword,
            ]
        )
    }

    /// Logs in on `/login` and returns the answer to the form.
    func logIn(_ login: String, password: String = testPassword, next: String = "/account") async throws -> Page {
        let page = try await get("/login")
        if page.status == .seeOther { return page }
        let token = try #require(page.csrfToken)
        return try await post("/login", form: ["csrf_token": token, "login": login, "password": password, "next": next])
    }

    /// Posts a picture the way the profile page's form does (multipart/form-data).
    func upload(_ uri: String, csrf: String, file: Data) async throws -> Page {
        let boundary = "kinship-test-boundary"
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf_token\"\r\n\r\n\(csrf)\r\n".utf8))
        body.append(
            Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"me.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
        )
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        return try await send(
            uri,
            method: .post,
            headers: [.contentType: "multipart/form-data; boundary=\(boundary)"],
            body: ByteBuffer(bytes: body)
        )
    }
}
