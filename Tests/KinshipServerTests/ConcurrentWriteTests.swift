import Foundation
import HTTPTypes
import KinshipCore
import Logging
import NIOCore
import Testing

@testable import KinshipServer

/// Many people writing at the same moment, each on a connection of their own. On SQLite these
/// once stalled the whole server: writers waited in SQLite's busy handler on the two threads that
/// the writer holding the lock needed to finish (HTTP 500 after ten seconds).
@Suite("Concurrent writes", .timeLimit(.minutes(3)))
struct ConcurrentWriteTests {
    @Test("64 people sign up at the same moment: every one gets an account", arguments: TestEngine.enabled)
    func signUps(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.signupsPerAddressPerMinute = 1_000 }) { server in
            let started = ContinuousClock.now
            let statuses = try await server.withBrowsers(64) { browsers in
                try await concurrently(browsers) { index, browser in
                    try await browser.signUp(name: "Person \(index)", email: "person\(index)@example.com").status
                }
            }
            #expect(statuses.allSatisfy { $0 == .seeOther }, "\(statuses.map(\.code))")
            #expect(try await server.platform.users.list().count == 64)
            // A stall shows as 500s above (SQLite's busy timeout); this bound only catches writers
            // waiting out timeouts one after another. It has room for a 2-core machine running the
            // whole suite at once (25 s seen in CI, against ~3 s alone).
            #expect(ContinuousClock.now - started < .seconds(60), "writers take turns without waiting out a timeout")
        }
    }

    @Test(
        "friend requests, consents and token exchanges at once; a read meanwhile waits for none of them",
        arguments: TestEngine.enabled
    )
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
                    let request = try await browser.post(
                        "/account/friends",
                        form: [
                            "csrf_token": csrf, "action": "request", "user_id": everyone[(index + 1) % everyone.count].id,
                        ]
                    )
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

/// Writes that read before they write, run at the same moment: on PostgreSQL two transactions
/// would both read the same state and both write on it, unless they serialize.
@Suite("Read-then-write at the same moment", .timeLimit(.minutes(3)))
struct ReadThenWriteTests {
    @Test("twenty posts at once by one person get sequences 1 to 20", arguments: TestEngine.enabled)
    func posts(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let ada = try await platform.users.create(NewUser(name: "Ada", email: "ada@example.com", password: "12345678"))
            let sequences = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<20 {
                    group.addTask { try await platform.posts.publish(userID: ada.id, appID: "1", message: "post \(index)", link: nil).sequence }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(sequences.sorted() == Array(1...20))
        }
    }

    @Test("one email signed up eight times at once: one account, seven told it is taken", arguments: TestEngine.enabled)
    func sameEmail(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let outcomes = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        do {
                            _ = try await platform.users.create(NewUser(name: "Ada \(index)", email: "ada@example.com", password: "12345678"))
                            return "created"
                        } catch let error as AccountError {
                            return error == .emailTaken("ada@example.com") ? "taken" : "\(error)"
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "created" }.count == 1)
            #expect(outcomes.filter { $0 == "taken" }.count == 7, "\(outcomes)")
        }
    }

    @Test("two people asking each other at the same moment become friends", arguments: TestEngine.enabled)
    func mutualRequests(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            var pairs: [(String, String)] = []
            for index in 0..<10 {
                let one = try await platform.users.create(NewUser(name: "One \(index)", email: "one\(index)@example.com", password: "12345678"))
                let other = try await platform.users.create(NewUser(name: "Other \(index)", email: "other\(index)@example.com", password: "12345678"))
                pairs.append((one.id, other.id))
            }
            let everyPair = pairs
            try await withThrowingTaskGroup(of: FriendRequestOutcome.self) { group in
                for (one, other) in everyPair {
                    group.addTask { try await platform.friends.sendRequest(from: one, to: other) }
                    group.addTask { try await platform.friends.sendRequest(from: other, to: one) }
                }
                try await group.waitForAll()
            }
            for (one, other) in pairs {
                #expect(try await platform.friends.areFriends(one, other))
                #expect(try await platform.friends.incomingRequests(for: one).isEmpty)
                #expect(try await platform.friends.incomingRequests(for: other).isEmpty)
            }
        }
    }

    @Test("eight consents to one app at once make one login", arguments: TestEngine.enabled)
    func consents(engine: TestEngine) async throws {
        try await withPlatform(engine) { platform in
            let ada = try await platform.users.create(NewUser(name: "Ada", email: "ada@example.com", password: "12345678"))
            let (app, _) = try await platform.apps.create(name: "Demo", redirectURIs: ["http://127.0.0.1/callback"], isConfidential: false)
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await platform.authorizations.recordConsent(userID: ada.id, appID: app.id, granted: [.email], declined: []).id
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(ids.count == 1)
            #expect(try await platform.authorizations.active(userID: ada.id).count == 1)
        }
    }

    @Test("two processes registering the same built-in app as they start", arguments: TestEngine.enabled)
    func builtInRegistration(engine: TestEngine) async throws {
        try await withPlatform(engine) { first in
            let second = try await Platform.open(first.database.location, bcryptCost: 4, logger: Logger(label: "second"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                for platform in [first, second, first, second] {
                    group.addTask {
                        try await platform.apps.registerBuiltIn(
                            id: "1",
                            name: "Sample",
                            redirectURIs: ["http://127.0.0.1/sample/callback"],
                            isConfidential: true,
                            secret: "s"
                        )
                    }
                }
                try await group.waitForAll()
            }
            await second.close()
            #expect(try await first.apps.find(id: "1")?.redirectURIs == ["http://127.0.0.1/sample/callback"])
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
        let answer = try await post(
            "/oauth/access_token",
            form: [
                "grant_type": "authorization_code", "code": code, "redirect_uri": loopbackRedirect, "client_id": app.id,
                "code_verifier": pkce.verifier,
            ]
        )
        let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        return try #require(json?["access_token"] as? String, "\(answer.status): \(answer.body)")
    }
}
