import Foundation
import KinshipCore
import KinshipKit
import KinshipServer
import Testing

/// Fails the first `failures` requests with a 503 Graph error, then passes requests on.
final class FlakyTransport: HTTPTransport, @unchecked Sendable {
    private let inner = SystemTransport()
    private let lock = NSLock()
    private var remainingFailures: Int
    private(set) var requests = 0

    init(failures: Int) {
        remainingFailures = failures
    }

    func failNext(_ count: Int) { lock.withLock { remainingFailures = count } }

    var requestCount: Int { lock.withLock { requests } }

    func send(_ request: TransportRequest) async throws(TransportError) -> TransportResponse {
        let fail = lock.withLock {
            requests += 1
            defer { remainingFailures -= 1 }
            return remainingFailures > 0
        }
        if fail {
            let body = #"{"error":{"message":"Service temporarily unavailable","type":"OAuthException","code":2,"fbtrace_id":"t"}}"#
            return TransportResponse(status: 503, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        }
        return try await inner.send(request)
    }
}

@Suite("KinshipKit Graph client against a live server", .timeLimit(.minutes(3)))
struct SDKGraphTests {
    @Test("typed requests, paging over every friend as an AsyncSequence, and a batch with one failing part")
    func typedRequests() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let friends = try await server.makeFriends(of: ada, app: app, count: 23, prefix: "Pal")
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            _ = try await sdk.manager.logIn(permissions: [.email, .userFriends])

            let me = try await sdk.graph.me(fields: ["id", "name", "first_name", "email", "picture"])
            #expect(me.id == ada.id)
            #expect(me.firstName == "Ada")
            #expect(me.email == "ada@example.com")
            #expect(me.picture?.data.isSilhouette == false)

            let page = try await sdk.graph.friends(limit: 5)
            #expect(page.data.count == 5)
            #expect(page.summary?.totalCount == 23)
            var walked: [String] = []
            for try await friend in sdk.graph.allFriends(pageSize: 7) { walked.append(friend.id) }
            #expect(walked.count == 23)
            #expect(Set(walked) == Set(friends.map(\.id)))

            let picture = try await sdk.graph.picture(type: .large)
            #expect(picture.width == 200)
            #expect(picture.url.contains("/pictures/"))

            let statuses = try await sdk.graph.permissions()
            #expect(statuses.contains(PermissionStatus(permission: .email, status: .granted)))

            let answers = try await sdk.graph.batch([.me(fields: ["name"]), GraphRequest(path: "me/feed"), .permissions])
            #expect(try answers[0].get()["name"]?.string == "Ada Lovelace")
            guard case .failure(let feedError) = answers[1] else {
                Issue.record("the feed part should fail")
                return
            }
            #expect(feedError.category == .permission)
            #expect(feedError.missingPermission == .userPosts)
            #expect(try answers[2].get()["data"]?.array?.isEmpty == false)

            let raw = try await sdk.graph.request(path: "me", params: ["fields": "id,short_name"])
            #expect(raw["short_name"]?.string == "Ada")
            await #expect {
                try await sdk.graph.request(path: "me", params: ["fields": "favourite_colour"])
            } throws: { error in
                (error as? GraphError).map { $0.category == .other && $0.code == 100 } ?? false
            }
        }
    }

    @Test("a revoked permission is a permission error; the recovery helper asks for it once and retries")
    func revokedPermissionAskAndRetry() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            _ = try await server.makeFriends(of: ada, app: app, count: 3, prefix: "Pal")
            let presenter = PersonAtBrowser(DialogPerson(server: server))
            let sdk = try await SDKClient(server: server, app: app, cache: MemoryTokenCache(), presenter: presenter)
            _ = try await sdk.manager.logIn(permissions: [.userFriends])
            try await sdk.graph.revoke(.userFriends)

            await #expect {
                try await sdk.graph.friends()
            } throws: { error in
                guard let error = error as? GraphError else { return false }
                return error.category == .permission && error.missingPermission == .userFriends && error.shouldNotifyUser
                    && error.httpStatus == 403 && error.userTitle == "Permission needed"
            }

            let page = try await sdk.recovery().perform { graph throws(GraphError) in try await graph.friends() }
            #expect(page.data.count == 3)
            #expect(presenter.dialogs.count == 2)
            let retryDialog = try #require(presenter.dialogs.last?.absoluteString)
            #expect(retryDialog.contains("auth_type=rerequest"))
            #expect(await sdk.session.state == .openTokenExtended)

            presenter.next { $0.untick = [.userFriends] }
            try await sdk.graph.revoke(.userFriends)
            await #expect {
                try await sdk.recovery().perform { graph throws(GraphError) in try await graph.friends() }
            } throws: { error in
                (error as? GraphError)?.category == .permission
            }
            #expect(presenter.dialogs.count == 3, "declined again: asked once, not in a loop")
        }
    }

    @Test("a revoked login is recoverable: the helper closes the session and forgets the token")
    func revokedLogin() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let cache = MemoryTokenCache()
            let sdk = try await SDKClient(server: server, app: app, cache: cache, presenter: PersonAtBrowser(DialogPerson(server: server)))
            _ = try await sdk.manager.logIn(permissions: [.email])
            try await sdk.graph.revokeLogin()

            await #expect {
                try await sdk.recovery().perform { graph throws(GraphError) in try await graph.me() }
            } throws: { error in
                guard let error = error as? GraphError else { return false }
                return error.category == .recoverable && error.code == 190 && error.subcode == 458 && error.shouldNotifyUser
            }
            #expect(await sdk.session.state == .closed)
            #expect(await cache.load(forKey: "default") == nil)
            await #expect(throws: GraphError.self) { try await sdk.graph.me() }
        }
    }

    @Test("transient server errors are retried a bounded number of times")
    func transientRetries() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let transport = FlakyTransport(failures: 0)
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server)),
                transport: transport
            )
            _ = try await sdk.manager.logIn()

            transport.failNext(2)
            let before = transport.requestCount
            #expect(try await sdk.recovery(transientRetries: 3).perform { graph throws(GraphError) in try await graph.me() }.name == "Ada Lovelace")
            #expect(transport.requestCount - before == 3)

            transport.failNext(10)
            let start = transport.requestCount
            await #expect {
                try await sdk.recovery(transientRetries: 2).perform { graph throws(GraphError) in try await graph.me() }
            } throws: { error in
                (error as? GraphError).map { $0.category == .transient && $0.httpStatus == 503 && !$0.shouldNotifyUser } ?? false
            }
            #expect(transport.requestCount - start == 3, "one try and two retries")
        }
    }

    @Test("the profile asks only for permitted fields and reloads when the token changes")
    func profile() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let presenter = PersonAtBrowser(DialogPerson(server: server, untick: [.email]))
            let sdk = try await SDKClient(server: server, app: app, cache: MemoryTokenCache(), presenter: presenter)
            let token = try #require(try await sdk.manager.logIn(permissions: [.email]).token)
            #expect(!Profile.fields(allowedBy: token).contains("email"))

            let current = CurrentProfile(graph: sdk.graph)
            let first = try await current.profile()
            #expect(first.name == "Ada Lovelace")
            #expect(first.email == nil)
            #expect(first.pictureURL != nil)

            presenter.next { $0.untick = [] }
            _ = try await sdk.manager.requestPermissions([.email])
            #expect(try await current.profile().email == "ada@example.com")
        }
    }
}
