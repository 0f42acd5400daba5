import Foundation
import HTTPTypes
import KinshipCore
import KinshipServer
import NIOCore
import Testing

/// Many people writing at the same moment, each on a connection of their own. On SQLite these
/// once stalled the whole server: writers waited in SQLite's busy handler on the two threads that
/// the writer holding the lock needed to finish (HTTP 500 after ten seconds).
@Suite("Concurrent writes")
struct ConcurrentWriteTests {
    @Test("64 people sign up at the same moment: every one gets an account", arguments: TestEngine.enabled)
    func signUps(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.signupsPerAddressPerMinute = 1_000 }) { server in
            let started = ContinuousClock.now
            let statuses = try await server.withBrowsers(64) { browsers in
                try await concurrently(browsers) { index, browser in
                    let token = try #require(try await browser.get("/signup").csrfToken)
                    return try await browser.post("/signup", form: [
                        "csrf_token": token, "name": "Person \(index)", "email": "person\(index)@example.com",
                        "password": testPassword, "password_again": testPassword,
                    ]).status
                }
            }
            #expect(statuses.allSatisfy { $0 == .seeOther }, "\(statuses.map(\.code))")
            #expect(try await server.platform.users.list().count == 64)
            #expect(ContinuousClock.now - started < .seconds(20), "writers take turns without waiting out a timeout")
        }
    }

    @Test("friend requests, consents and token exchanges at once; a read meanwhile waits for none of them",
        arguments: TestEngine.enabled)
    func mixedWrites(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            var people: [UserRecord] = []
            for index in 0..<32 {
                people.append(try await server.makeUser(name: "Person \(index)", email: "person\(index)@example.com", username: nil))
            }
            let everyone = people
            let readTimes = try await server.withBrowsers(33) { browsers in
                let writers = Array(browsers.prefix(32))
                for (index, browser) in writers.enumerated() {
                    #expect(try await browser.logIn("person\(index)@example.com").status == .seeOther)
                }
                async let outcomes = concurrently(writers) { index, browser in
                    let csrf = try #require(try await browser.get("/account/friends").csrfToken)
                    let request = try await browser.post("/account/friends", form: [
                        "csrf_token": csrf, "action": "request", "user_id": everyone[(index + 1) % everyone.count].id,
                    ])
                    let token = try await browser.authorizeAndExchange(server, app)
                    return (request.status, token)
                }
                var readTimes: [Duration] = []
                let reader = browsers[32]
                for _ in 0..<10 {
                    let started = ContinuousClock.now
                    #expect(try await reader.get(server.dialogURI(app, scope: [.email], pkce: .make())).status == .ok)
                    readTimes.append(ContinuousClock.now - started)
                }
                for (status, token) in try await outcomes {
                    #expect(status == .seeOther)
                    #expect(token.hasPrefix("kat_"))
                }
                return readTimes
            }
            #expect(readTimes.allSatisfy { $0 < .seconds(2) }, "reads are answered beside the writes: \(readTimes)")
            for person in people {
                #expect(try await server.platform.friends.outgoingRequests(of: person.id).count == 1)
            }
        }
    }
}

extension Browser {
    /// Goes through the dialog as the logged-in person (consenting to `email`) and exchanges the
    /// code on this browser's own connection; returns the access token.
    func authorizeAndExchange(_ server: LiveServer, _ app: TestApp) async throws -> String {
        let pkce = PKCEPair.make()
        let consent = try await get(server.dialogURI(app, scope: [.email], pkce: pkce))
        let done = try await submit(consent, action: "/dialog/oauth/confirm", button: ("action", "continue"))
        let location = try #require(done.location)
        let redirect = try AuthorizationResponse(redirectURL: try #require(URL(string: location)))
        guard case .code(let code, _) = redirect else { throw BrowserError.noRedirect(done.status.code) }
        let answer = try await post("/oauth/access_token", form: [
            "grant_type": "authorization_code", "code": code, "redirect_uri": loopbackRedirect, "client_id": app.id,
            "code_verifier": pkce.verifier,
        ])
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return try #require(json?["access_token"] as? String, "\(answer.status): \(answer.body)")
    }
}
