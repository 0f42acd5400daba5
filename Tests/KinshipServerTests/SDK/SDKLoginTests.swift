import Foundation
import KinshipCore
import KinshipKit
import KinshipLoopback
import KinshipServer
import Testing

@Suite("KinshipKit logins against a live server", .timeLimit(.minutes(3)))
struct SDKLoginTests {
    /// A client whose presenter is the app's custom scheme: dialogs it is asked to show arrive on
    /// the returned stream, and the test hands redirects back as the app would.
    private func customSchemeClient(_ server: LiveServer, _ app: TestApp) async throws -> (SDKClient, AsyncStream<URL>) {
        let (shown, showing) = AsyncStream<URL>.makeStream()
        let sdk = try await SDKClient(
            server: server,
            app: app,
            cache: MemoryTokenCache(),
            presenter: CustomSchemePresenter { url in showing.yield(url) }
        )
        return (sdk, shown)
    }

    @Test("a loopback login where the person unticks email: result, state changes in order, token on disk and after a restart")
    func loopbackLogin() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kinship-sdk-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let presenter = PersonAtBrowser(DialogPerson(server: server, untick: [.email]))
            let sdk = try await SDKClient(server: server, app: app, cache: FileTokenCache(folder: folder), presenter: presenter)
            let session = await sdk.session
            let changes = await session.changes

            let result = try await sdk.manager.logIn(permissions: [.email, .userFriends])

            guard case .success(let login) = result else {
                Issue.record("expected a login, got \(result)")
                return
            }
            #expect(login.grantedPermissions == [.userFriends])
            #expect(login.declinedPermissions == [.email])
            #expect(login.token.hasGranted(.publicProfile))
            #expect(!login.token.isExpired)
            #expect(await session.state == .open)
            try await session.close()
            var seen: [SessionState] = []
            for await change in changes { seen.append(change.to) }
            #expect(seen == [.createdOpening, .open, .closed])

            let dialog = try #require(presenter.dialogs.first.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) })
            let query = Dictionary(uniqueKeysWithValues: (dialog.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["code_challenge_method"] == "S256")
            #expect(query["code_challenge"]?.count == 43)
            #expect((query["state"]?.count ?? 0) >= 22)
            #expect(query["redirect_uri"]?.hasPrefix("http://127.0.0.1:") == true)
            #expect(presenter.pages.first?.contains("You can close this tab") == true)

            let file = folder.appendingPathComponent("default.json")
            let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            let restarted = try await SDKClient(server: server, app: app, cache: FileTokenCache(folder: folder), presenter: presenter)
            let cached = await restarted.session
            #expect(await cached.state == .createdTokenLoaded)
            try await cached.openWithCachedToken()
            #expect(try await restarted.graph.me().id == login.token.userID)
            #expect(presenter.dialogs.count == 1, "opening from the cache shows no dialog")
        }
    }

    @Test("a second device given the remote cache secret starts logged in; another secret does not")
    func remoteCache() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let port = try #require(server.client.port)
            let serverURL = URL(string: "http://127.0.0.1:\(port)")!
            let secret = RemoteTokenCache.Secret.random()
            let phone = try await SDKClient(
                server: server,
                app: app,
                cache: RemoteTokenCache(serverURL: serverURL, secret: secret),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            let token = try #require(try await phone.manager.logIn(permissions: [.email]).token)

            let laptopPresenter = PersonAtBrowser(DialogPerson(server: server))
            let laptop = try await SDKClient(
                server: server,
                app: app,
                cache: RemoteTokenCache(serverURL: serverURL, secret: secret),
                presenter: laptopPresenter
            )
            let session = await laptop.session
            #expect(await session.state == .createdTokenLoaded)
            #expect(await session.accessToken == token)
            try await session.openWithCachedToken()
            #expect(try await laptop.graph.me(fields: ["id", "email"]).email == "ada@example.com")
            #expect(laptopPresenter.dialogs.isEmpty)

            let stranger = try await Session(appID: app.id, cache: RemoteTokenCache(serverURL: serverURL, secret: .random()))
            #expect(await stranger.state == .created)

            try await session.closeAndClearTokenInformation()
            let afterLogout = try await Session(appID: app.id, cache: RemoteTokenCache(serverURL: serverURL, secret: secret))
            #expect(await afterLogout.state == .created, "clearing on one device clears the shared entry")
        }
    }

    @Test("Cancel on the dialog gives a cancelled result and a failed session; a new login starts a new session")
    func cancelledLogin() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let presenter = PersonAtBrowser(DialogPerson(server: server, pressesCancel: true))
            let sdk = try await SDKClient(server: server, app: app, cache: MemoryTokenCache(), presenter: presenter)
            let first = await sdk.session

            #expect(try await sdk.manager.logIn(permissions: [.email]) == .cancelled)
            #expect(await first.state == .closedLoginFailed)
            #expect(presenter.pages.first?.contains("Login not completed") == true)

            presenter.next { $0.pressesCancel = false }
            #expect(try await sdk.manager.logIn(permissions: [.email]).token != nil)
            let second = await sdk.session
            #expect(first !== second, "a closed session is not reopened")
            #expect(await second.state == .open)
        }
    }

    @Test("custom scheme: the app hands the redirect to handleOpenURL; a second login while one is pending fails; cancel ends it")
    func customScheme() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (sdk, shown) = try await customSchemeClient(server, app)
            var dialogs = shown.makeAsyncIterator()

            let login = Task { try await sdk.manager.logIn(permissions: [.userFriends]) }
            let dialog = try #require(await dialogs.next())
            await #expect(throws: LoginError.loginInProgress) { try await sdk.manager.logIn() }
            #expect(await !sdk.manager.handleOpenURL(URL(string: "kinship999://authorize?code=x&state=y")!), "another app's URL is not taken")
            let redirect = try await DialogPerson(server: server).complete(dialog)
            #expect(redirect.absoluteString.hasPrefix("kinship\(app.id)://authorize?code="))
            #expect(await sdk.manager.handleOpenURL(redirect))
            #expect(try await login.value.token?.hasGranted(.userFriends) == true)

            let again = Task { try await sdk.manager.requestPermissions([.email]) }
            _ = try #require(await dialogs.next())
            await sdk.manager.cancel()
            #expect(try await again.value == .cancelled)
            #expect(await sdk.session.state == .open, "a cancelled request for more permissions leaves the session open")
        }
    }

    @Test("a redirect with another state is refused, and a dialog error is typed")
    func stateMismatch() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (sdk, shown) = try await customSchemeClient(server, app)
            var dialogs = shown.makeAsyncIterator()

            let forged = Task { try await sdk.manager.logIn() }
            _ = try #require(await dialogs.next())
            #expect(await sdk.manager.handleOpenURL(URL(string: "kinship\(app.id)://authorize?code=kac_stolen&state=forged")!))
            await #expect(throws: LoginError.stateMismatch) { try await forged.value }
            #expect(await sdk.session.state == .closedLoginFailed)

            let refused = Task { try await sdk.manager.logIn(permissions: ["no_such_permission"]) }
            let dialog = try #require(await dialogs.next())
            let redirect = try await DialogPerson(server: server).complete(dialog)
            #expect(await sdk.manager.handleOpenURL(redirect))
            await #expect {
                try await refused.value
            } throws: { error in
                guard case LoginError.dialogRefused(let refusal) = error else { return false }
                return refusal.code == .invalidScope
            }
        }
    }

    @Test("read and publish permissions are asked in separate logins; publishing gets its own consent step")
    func publishPermissions() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let sdk = try await SDKClient(
                server: server,
                app: app,
                cache: MemoryTokenCache(),
                presenter: PersonAtBrowser(DialogPerson(server: server))
            )
            await #expect(throws: LoginError.mixedPermissionKinds(read: [.email], publish: [.publishActions])) {
                try await sdk.manager.logIn(permissions: [.email, .publishActions])
            }
            #expect(await sdk.session.state == .created, "a refused request changes nothing")
            _ = try await sdk.manager.logIn(permissions: [.email])
            let result = try await sdk.manager.requestPermissions([.publishActions])
            #expect(result.token?.hasGranted(.publishActions) == true)
            #expect(result.token?.hasGranted(.email) == true)
            #expect(await sdk.session.state == .openTokenExtended)
            let postID = try await sdk.graph.post(message: "Hello from KinshipKit")
            #expect(!postID.isEmpty)
        }
    }
}
