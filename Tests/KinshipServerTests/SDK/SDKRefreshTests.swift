import Foundation
import KinshipCore
import KinshipKit
import KinshipServer
import SQLKit
import Testing

@Suite("KinshipKit keeps a person logged in with refresh tokens", .timeLimit(.minutes(3)))
struct SDKRefreshTests {
    @Test(
        "a session whose tokens expire keeps working through Graph calls by refreshing, and reaches openTokenExtended",
        arguments: TestEngine.enabled
    )
    func staysLoggedIn(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let cache = MemoryTokenCache()
            let sdk = try await SDKClient(server: server, app: app, cache: cache, presenter: PersonAtBrowser(DialogPerson(server: server)))
            let login = try #require(try await sdk.manager.logIn(permissions: [.email]).token)
            #expect(login.refreshToken != nil, "a public app's login carries a refresh token")
            #expect(login.refreshTokenExpirationDate == login.refreshDate.addingTimeInterval(TimeInterval(server.configuration.refreshTokenLifetime)))
            let changes = await sdk.session.changes

            var previous = login
            for _ in 0..<3 {
                server.clock.advance(by: server.configuration.shortTokenLifetime + 1)
                #expect(try await sdk.graph.me().id == ada.id)
                let current = try #require(await sdk.session.accessToken)
                #expect(current.tokenString != previous.tokenString && current.refreshToken != previous.refreshToken)
                #expect(current.permissions.contains(.email))
                #expect(await cache.load(forKey: "default") == current, "the renewed pair is cached")
                previous = current
            }
            #expect(await sdk.session.state == .openTokenExtended)
            try await sdk.session.close()
            var seen: [SessionState] = []
            for await change in changes { seen.append(change.to) }
            #expect(seen == [.openTokenExtended, .openTokenExtended, .openTokenExtended, .closed])

            server.clock.advance(by: server.configuration.shortTokenLifetime + 1)
            let relaunched = try await Session(appID: app.id, cache: cache, clock: server.dateClock)
            #expect(await relaunched.state == .createdTokenLoaded, "an expired token with a live refresh token still starts logged in")
        }
    }

    @Test("a token about to expire is renewed before the call, once for many concurrent calls", arguments: TestEngine.enabled)
    func concurrentCallsShareOneRefresh(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            _ = try await sdk.manager.logIn()
            server.clock.advance(by: server.configuration.shortTokenLifetime - 60)

            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<16 { group.addTask { try await sdk.graph.me().id } }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(ids == Array(repeating: ada.id, count: 16))
            let rotated = try await server.platform.database.read { sql in
                try await sql.raw("SELECT COUNT(*) AS n FROM refresh_tokens WHERE rotated_at IS NOT NULL").first(decodingColumn: "n", as: Int.self)
            }
            #expect(rotated == 1, "sixteen calls spent the refresh token once")
            #expect(await sdk.session.state == .openTokenExtended)
        }
    }

    @Test("a token the platform refuses before it expires is renewed by the recovery helper, and the call retried")
    func recoveryRenews() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            let login = try #require(try await sdk.manager.logIn().token)
            let (status, _) = try await server.postForm(
                "/oauth/revoke",
                ["client_id": app.id, "token": login.tokenString, "token_type_hint": "access_token"]
            )
            #expect(status == .ok)
            await #expect(throws: GraphError.self) { try await sdk.graph.me() }

            let me = try await sdk.recovery().perform { graph throws(GraphError) in try await graph.me() }
            #expect(me.id == ada.id)
            #expect(await sdk.session.accessToken?.tokenString != login.tokenString)
            #expect(await sdk.session.state == .openTokenExtended)
        }
    }

    @Test("a removed app makes the refresh fail: the session closes, forgets the token and says why", arguments: TestEngine.enabled)
    func removedApp(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let cache = MemoryTokenCache()
            let sdk = try await SDKClient(server: server, app: app, cache: cache, presenter: PersonAtBrowser(DialogPerson(server: server)))
            _ = try await sdk.manager.logIn()
            try await sdk.graph.revokeLogin()
            server.clock.advance(by: server.configuration.shortTokenLifetime + 1)

            await #expect {
                try await sdk.recovery().perform { graph throws(GraphError) in try await graph.me() }
            } throws: { error in
                guard let error = error as? GraphError else { return false }
                return error.category == .recoverable && error.shouldNotifyUser
                    && error.userMessage == "The app was removed from this account; log in again."
            }
            #expect(await sdk.session.state == .closed)
            #expect(await sdk.session.closeReason == "The app was removed from this account; log in again.")
            #expect(await cache.load(forKey: "default") == nil)
        }
    }

    @Test("a platform out of reach leaves an unexpired token in use and keeps the refresh token")
    func platformOutOfReach() async throws {
        try await withLiveServer(.sqlite) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let transport = FlakyTransport(failures: 0)
            let cache = MemoryTokenCache()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: cache,
                presenter: PersonAtBrowser(DialogPerson(server: server)),
                transport: transport
            )
            let login = try #require(try await sdk.manager.logIn().token)
            server.clock.advance(by: server.configuration.shortTokenLifetime - 60)

            transport.failNext(1)
            #expect(try await sdk.graph.me().id == ada.id, "the refresh failed, the call went out with the old token")
            #expect(await sdk.session.accessToken == login)
            #expect(await sdk.session.state == .open)

            server.clock.advance(by: 120)
            transport.failNext(1)
            await #expect {
                try await sdk.graph.me()
            } throws: { error in
                (error as? GraphError)?.category == .transient
            }
            #expect(await sdk.session.state == .open, "an unreachable platform does not end the login")
            #expect(try await sdk.graph.me().id == ada.id)
            #expect(await sdk.session.state == .openTokenExtended)
        }
    }

    @Test("logging out with revokeTokens ends the refresh token and its access tokens on the platform")
    func revokeAtLogout() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            let login = try #require(try await sdk.manager.logIn().token)
            try await sdk.manager.revokeTokens()
            await sdk.manager.logOut()

            let (status, body) = try await server.graph("/me", token: login.tokenString)
            #expect(status == .badRequest || status == .unauthorized, "\(body)")
            let (refreshStatus, refused) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "refresh_token", "client_id": app.id, "refresh_token": login.refreshToken ?? ""]
            )
            #expect(refreshStatus == .badRequest)
            #expect(refused["error"] as? String == "invalid_grant")
        }
    }
}
