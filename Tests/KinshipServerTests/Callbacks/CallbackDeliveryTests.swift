import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// App callbacks (deauthorize, data deletion) through the outbox, against a small HTTP server the
/// test runs as the app's server.
@Suite("App callbacks", .timeLimit(.minutes(3)))
struct CallbackDeliveryTests {
    /// Looks at the outbox often, and gives up on an app's server soon (a refused connection is
    /// retried by the HTTP client until then).
    static func fastDelivery(_ configuration: inout ServerConfiguration) {
        configuration.callbacks.pollInterval = 0.05
        configuration.callbacks.timeout = 1
    }

    @Test(
        "people removing an app at once: each is told to its server once, signed, and nobody's request waits for it",
        arguments: TestEngine.enabled
    )
    func deauthorize(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: { $0.callbacks.pollInterval = 0.05 }) { server in
            try await withCallbackReceiver(delay: .seconds(2)) { receiver in
                let (app, signingSecret) = try await makeAppWithCallbacks(server, baseURL: receiver.baseURL)
                var people: [(user: UserRecord, token: String)] = []
                for number in 1...6 { people.append(try await makePersonUsing(app, server, number: number)) }

                let durations = try await withThrowingTaskGroup(of: (HTTPResponse.Status, Duration).self) { group in
                    for person in people {
                        group.addTask {
                            let start = ContinuousClock.now
                            let (status, _) = try await server.graph("/me/permissions", token: person.token, method: .delete)
                            return (status, ContinuousClock.now - start)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(durations.allSatisfy { $0.0 == .ok })
                #expect(durations.allSatisfy { $0.1 < .seconds(2) }, "the removal does not wait for the app's server: \(durations)")

                #expect(await eventually(within: 20) { receiver.received.count >= 6 })
                let verified = try receiver.received.map { try SignedRequest(verifying: $0.signedRequest, secret: signingSecret) }
                #expect(verified.map(\.userID).sorted() == people.map(\.user.id).sorted(), "once each")
                #expect(receiver.received.allSatisfy { $0.path == "/deauthorize" })
                #expect(verified.allSatisfy { abs($0.issuedAt - server.clock.now) <= 1 })
                #expect(
                    await eventually { (try? await server.platform.callbacks.recent(appID: app.id).allSatisfy { $0.status == .delivered }) == true }
                )
                #expect(try await server.platform.callbacks.recent(appID: app.id).allSatisfy { $0.attempts == 1 && $0.lastStatus == 200 })

                let ada = try await makePersonUsing(app, server, number: 7)
                let appToken = try #require(
                    try await server.postForm(
                        "/oauth/access_token",
                        ["grant_type": "client_credentials", "client_id": app.id, "client_secret": app.secret]
                    ).1["access_token"] as? String
                )
                #expect(try await server.graph("/\(ada.user.id)/permissions", token: appToken, method: .delete).0 == .ok)
                #expect(try await callbacks(of: ada.user.id, server.platform).isEmpty, "an app removing itself is not told")
                #expect(try await server.graph("/me/permissions", token: people[0].token, method: .delete).0 == .unauthorized)
                #expect(try await callbacks(of: people[0].user.id, server.platform).count == 1, "a second removal sends nothing")
            }
        }
    }

    @Test(
        "a callback is retried with backoff while the app's server is down or failing, and given up after a day",
        arguments: TestEngine.enabled
    )
    func retries(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: Self.fastDelivery) { server in
            let reserved = try ReservedPort()
            let port = reserved.port
            let (app, _) = try await makeAppWithCallbacks(server, baseURL: "http://127.0.0.1:\(port)")
            let first = try await makePersonUsing(app, server, number: 1)
            #expect(try await server.graph("/me/permissions", token: first.token, method: .delete).0 == .ok)
            #expect(await eventually { (try? await callbacks(of: first.user.id, server.platform).first?.lastError) != nil })
            let refused = try #require(try await callbacks(of: first.user.id, server.platform).first)
            #expect(refused.status == .pending)
            #expect(refused.lastError == "The app's server could not be reached: the connection was refused.", "\(refused.lastError ?? "")")
            #expect(refused.nextAttemptAt == server.clock.now + 30)

            reserved.release()
            try await withCallbackReceiver(port: port) { receiver in
                receiver.answerNext(.status(.serviceUnavailable))
                server.clock.advance(by: 30)
                #expect(await eventually { (try? await callbacks(of: first.user.id, server.platform).first?.lastStatus) == 503 })
                let failing = try #require(try await callbacks(of: first.user.id, server.platform).first)
                #expect(failing.attempts == 2)
                #expect(failing.nextAttemptAt == server.clock.now + 60, "the second wait is twice the first")
                server.clock.advance(by: 60)
                #expect(await eventually { (try? await callbacks(of: first.user.id, server.platform).first?.status) == .delivered })
                #expect(try await callbacks(of: first.user.id, server.platform).first?.attempts == 3)
                #expect(receiver.received.count == 2)
            }

            let second = try await makePersonUsing(app, server, number: 2)
            #expect(try await server.graph("/me/permissions", token: second.token, method: .delete).0 == .ok)
            #expect(await eventually { (try? await callbacks(of: second.user.id, server.platform).first?.lastError) != nil })
            server.clock.advance(by: CallbackOutbox.retryWindow - 10)
            #expect(await eventually { (try? await callbacks(of: second.user.id, server.platform).first?.status) == .failed })
            #expect(try await callbacks(of: second.user.id, server.platform).first?.attempts == 2)
            let failures = #"kinship_callback_failed_deliveries_total{kind="deauthorize"}"#
            #expect(await server.metrics.reading(failures, from: server.platform) == 4, "refused, 503, refused, given up")
            #expect(await server.metrics.reading("kinship_callback_outbox_depth", from: server.platform) == 0, "one delivered, one given up")
        }
    }

    @Test("a callback left by a stopped server is delivered by the next one on the same database", arguments: TestEngine.enabled)
    func survivesRestart(engine: TestEngine) async throws {
        // Held, refusing connections, until the receiver takes it: another test cannot take it meanwhile.
        let reserved = try ReservedPort()
        let port = reserved.port
        try await withLiveServer(engine, configure: { $0.callbacks.pollInterval = 3_600 }) { server in
            let (app, signingSecret) = try await makeAppWithCallbacks(server, baseURL: "http://127.0.0.1:\(port)")
            let person = try await makePersonUsing(app, server, number: 1)
            try await withSecondProcess(of: server, configure: Self.fastDelivery) { (first: LiveServer) async throws in
                #expect(try await first.graph("/me/permissions", token: person.token, method: .delete).0 == .ok)
                #expect(await eventually { (try? await callbacks(of: person.user.id, server.platform).first?.lastError) != nil })
            }
            reserved.release()
            try await withCallbackReceiver(port: port) { receiver in
                try await withSecondProcess(of: server, configure: Self.fastDelivery) { (_: LiveServer) async throws in
                    server.clock.advance(by: 30)
                    #expect(await eventually { receiver.received.count == 1 })
                    #expect(try SignedRequest(verifying: receiver.received[0].signedRequest, secret: signingSecret).userID == person.user.id)
                    #expect(await eventually { (try? await callbacks(of: person.user.id, server.platform).first?.status) == .delivered })
                }
            }
        }
    }

    @Test("the data deletion callback goes to every app the person used, and the app's answer is kept", arguments: TestEngine.enabled)
    func dataDeletion(engine: TestEngine) async throws {
        try await withLiveServer(engine, configure: Self.fastDelivery) { server in
            try await withCallbackReceiver { receiver in
                let (app, signingSecret) = try await makeAppWithCallbacks(server, baseURL: receiver.baseURL)
                let quiet = try await server.makeApp(name: "No callbacks", redirectURIs: [loopbackRedirect])
                let person = try await makePersonUsing(app, server, number: 1)
                _ = try await server.logInAndGetToken(quiet, scope: [], login: "person1@example.com")
                receiver.answerNext(.ok(body: #"{"url":"https://app.example.com/deletion?id=abc123","confirmation_code":"abc123"}"#))
                #expect(try await server.platform.callbacks.requestDataDeletion(userID: person.user.id) == 1, "only the app with a URL")
                #expect(await eventually { (try? await callbacks(of: person.user.id, server.platform).first?.status) == .delivered })
                let delivered = try #require(try await callbacks(of: person.user.id, server.platform).first)
                #expect(delivered.kind == .dataDeletion)
                #expect(delivered.confirmationCode == "abc123")
                #expect(delivered.statusUrl == "https://app.example.com/deletion?id=abc123")
                #expect(receiver.received.first?.path == "/data-deletion")
                #expect(try SignedRequest(verifying: receiver.received[0].signedRequest, secret: signingSecret).userID == person.user.id)

                let other = try await makePersonUsing(app, server, number: 2)
                receiver.answerNext(.ok(body: "thanks"))
                #expect(try await server.platform.callbacks.requestDataDeletion(userID: other.user.id) == 1)
                #expect(await eventually { (try? await callbacks(of: other.user.id, server.platform).first?.status) == .delivered })
                let unexpected = try #require(try await callbacks(of: other.user.id, server.platform).first)
                #expect(unexpected.confirmationCode == nil)
                #expect(unexpected.lastError?.contains("confirmation_code") == true)
            }
        }
    }

    @Test("two processes on one PostgreSQL deliver each of 30 callbacks exactly once")
    func twoProcesses() async throws {
        guard TestEngine.enabled.contains(.postgres) else { return }
        try await withLiveServer(.postgres, configure: Self.fastDelivery) { server in
            try await withCallbackReceiver(delay: .milliseconds(100)) { receiver in
                let (app, signingSecret) = try await makeAppWithCallbacks(server, baseURL: receiver.baseURL)
                var people: [String] = []
                for number in 1...30 {
                    let user = try await server.makeUser(name: "Person \(number)", email: "p\(number)@example.com", username: nil)
                    _ = try await server.platform.authorizations.recordConsent(userID: user.id, appID: app.id, granted: [], declined: [])
                    people.append(user.id)
                }
                let userIDs = people
                try await withSecondProcess(of: server, configure: Self.fastDelivery) { (_: LiveServer) async throws in
                    let queued = try await withThrowingTaskGroup(of: Int.self) { group in
                        for userID in userIDs { group.addTask { try await server.platform.callbacks.requestDataDeletion(userID: userID) } }
                        return try await group.reduce(0, +)
                    }
                    #expect(queued == 30)
                    #expect(
                        await eventually(within: 30) {
                            (try? await server.platform.callbacks.recent(appID: app.id, limit: 100).allSatisfy { $0.status == .delivered }) == true
                        }
                    )
                }
                let received = try receiver.received.map { try SignedRequest(verifying: $0.signedRequest, secret: signingSecret).userID }
                #expect(received.sorted() == userIDs.sorted(), "each once")
                #expect(try await server.platform.callbacks.recent(appID: app.id, limit: 100).allSatisfy { $0.attempts == 1 })
            }
        }
    }
}
