import Foundation
import HTTPTypes
import HummingbirdTesting
import KinshipCore
import KinshipServer
import Logging
import NIOCore
import Testing

@Suite("Refresh tokens", .timeLimit(.minutes(3)))
struct RefreshTokenTests {
    @Test("public apps always get a refresh token, confidential ones with offline_access", arguments: TestEngine.enabled)
    func whoGetsOne(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let publicApp = try await server.makeApp()
            let native = try await server.loginResponse(publicApp, scope: [.publicProfile])
            #expect((native["refresh_token"] as? String)?.hasPrefix("krt_") == true)

            let web = try await server.makeApp(name: "Web", confidential: true)
            let withoutOffline = try await server.loginResponse(web, scope: [.publicProfile], secret: web.secret)
            #expect(withoutOffline["refresh_token"] == nil && withoutOffline["refresh_token_expires_in"] == nil)
            let offline = try await server.loginResponse(web, scope: [.publicProfile, .offlineAccess], secret: web.secret)
            #expect(offline["refresh_token"] is String)
            let (status, json) = try await server.refresh(try #require(offline["refresh_token"] as? String), app: web, secret: nil)
            #expect(status == .unauthorized && json["error"] as? String == "invalid_client", "a confidential app refreshes with its secret")
        }
    }

    @Test("each refresh rotates: a new pair that works, the old refresh token spent", arguments: TestEngine.enabled)
    func rotation(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let first = try await server.loginResponse(app, scope: [.publicProfile, .email])
            let refreshToken = try #require(first["refresh_token"] as? String)
            server.clock.advance(by: 3 * 60 * 60)
            let (expiredStatus, _) = try await server.graph("/me", token: try #require(first["access_token"] as? String))
            #expect(expiredStatus == .badRequest || expiredStatus == .unauthorized, "the first access token has expired")

            let (status, second) = try await server.refresh(refreshToken, app: app)
            #expect(status == .ok)
            let secondRefresh = try #require(second["refresh_token"] as? String)
            #expect(secondRefresh != refreshToken)
            #expect(second["expires_in"] as? Int == 7200)
            #expect(second["refresh_token_expires_in"] as? Int == server.configuration.refreshTokenLifetime)
            #expect(Set(second["granted_scopes"] as? [String] ?? []) == ["public_profile", "email"])
            let (meStatus, me) = try await server.graph("/me?fields=email", token: try #require(second["access_token"] as? String))
            #expect(meStatus == .ok && me["email"] as? String == "ada@example.com")
            let (thirdStatus, _) = try await server.refresh(secondRefresh, app: app)
            #expect(thirdStatus == .ok)
        }
    }

    @Test("a rotated token used again after the grace window revokes its whole family", arguments: TestEngine.enabled)
    func reuseRevokesTheFamily(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let first = try await server.loginResponse(app, scope: [.publicProfile])
            let stolen = try #require(first["refresh_token"] as? String)
            let (_, legitimate) = try await server.refresh(stolen, app: app)
            let legitimateAccess = try #require(legitimate["access_token"] as? String)
            let legitimateRefresh = try #require(legitimate["refresh_token"] as? String)

            server.clock.advance(by: server.configuration.refreshReuseGrace + 1)
            let (status, json) = try await server.refresh(stolen, app: app)
            #expect(status == .badRequest && json["error"] as? String == "invalid_grant")
            #expect((json["error_description"] as? String)?.contains("already used") == true)
            let (meStatus, _) = try await server.graph("/me", token: legitimateAccess)
            #expect(meStatus != .ok, "access tokens of the family are revoked")
            let (firstStatus, _) = try await server.graph("/me", token: try #require(first["access_token"] as? String))
            #expect(firstStatus != .ok, "the login's first access token too")
            let (laterStatus, _) = try await server.refresh(legitimateRefresh, app: app)
            #expect(laterStatus == .badRequest, "and the family's newest refresh token")
        }
    }

    @Test("a long-lived token made from a family's access token ends with the family", arguments: TestEngine.enabled)
    func longLivedTokenFollowsItsFamily(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let first = try await server.loginResponse(app, scope: [.publicProfile])
            let stolen = try #require(first["refresh_token"] as? String)
            let (_, renewed) = try await server.refresh(stolen, app: app)
            let (extendStatus, extended) = try await server.postForm(
                "/oauth/access_token",
                [
                    "grant_type": "fb_exchange_token", "client_id": app.id, "client_secret": app.secret,
                    "fb_exchange_token": try #require(renewed["access_token"] as? String),
                ]
            )
            #expect(extendStatus == .ok)
            let longLived = try #require(extended["access_token"] as? String)
            #expect(try await server.debugToken(longLived, app: app).isValid)

            server.clock.advance(by: server.configuration.refreshReuseGrace + 1)
            let (reuseStatus, _) = try await server.refresh(stolen, app: app)
            #expect(reuseStatus == .badRequest)
            #expect(!(try await server.debugToken(longLived, app: app).isValid), "revoked with the family it was made from")
        }
    }

    @Test("a replayed code also ends the refresh token family its first use started, and what it renewed", arguments: TestEngine.enabled)
    func replayedCodeEndsTheFamily(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (code, verifier) = try await server.authorizedCode(app, scope: [.publicProfile])
            let (status, first) = try await server.exchange(code: code, app: app, verifier: verifier)
            #expect(status == .ok)
            let (renewStatus, renewed) = try await server.refresh(try #require(first["refresh_token"] as? String), app: app)
            #expect(renewStatus == .ok)

            let (replayStatus, replay) = try await server.exchange(code: code, app: app, verifier: verifier)
            #expect(replayStatus == .badRequest && replay["error"] as? String == "invalid_grant")
            for (name, token) in [("first", first["access_token"]), ("renewed", renewed["access_token"])] {
                let (meStatus, _) = try await server.graph("/me", token: try #require(token as? String))
                #expect(meStatus != .ok, "the \(name) access token is revoked")
            }
            let (refreshStatus, refreshed) = try await server.refresh(try #require(renewed["refresh_token"] as? String), app: app)
            #expect(refreshStatus == .badRequest && refreshed["error"] as? String == "invalid_grant", "the family's newest refresh token")
        }
    }

    @Test("one code sent by 8 clients at once: one gets tokens, the replays revoke them all", arguments: TestEngine.enabled)
    func concurrentReplays(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let (code, verifier) = try await server.authorizedCode(app, scope: [.publicProfile])
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let (status, json) = try await server.exchange(code: code, app: app, verifier: verifier)
                        return (status, json["access_token"] as? String, json["refresh_token"] as? String)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = answers.filter { $0.0 == .ok }
            #expect(winners.count == 1)
            #expect(answers.filter { $0.0 == .badRequest }.count == 7)
            let (_, access, refresh) = try #require(winners.first)
            let (meStatus, _) = try await server.graph("/me", token: try #require(access))
            #expect(meStatus != .ok, "the access token the code gave is revoked")
            let (refreshStatus, _) = try await server.refresh(try #require(refresh), app: app)
            #expect(refreshStatus == .badRequest, "and its refresh token")
        }
    }

    @Test("8 refreshes while the person removes the app: whatever they were answered, no token works afterwards", arguments: TestEngine.enabled)
    func refreshesRacingRemoval(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            var refreshTokens: [String] = []
            for _ in 0..<8 {
                refreshTokens.append(try #require(try await server.loginResponse(app, scope: [.publicProfile])["refresh_token"] as? String))
            }
            let remover = try #require(try await server.loginResponse(app, scope: [.publicProfile])["access_token"] as? String)
            typealias Answer = (status: HTTPResponse.Status, error: String?, access: String?, refresh: String?)
            let answers = try await withThrowingTaskGroup(of: Answer?.self) { group in
                for token in refreshTokens {
                    group.addTask {
                        let (status, json) = try await server.refresh(token, app: app)
                        return (status, json["error"] as? String, json["access_token"] as? String, json["refresh_token"] as? String)
                    }
                }
                group.addTask {
                    let (status, _) = try await server.graph("/me/permissions", token: remover, method: .delete)
                    #expect(status == .ok, "the app is removed")
                    return nil
                }
                return try await group.reduce(into: [Answer]()) { if let answer = $1 { $0.append(answer) } }
            }
            #expect(answers.allSatisfy { $0.status == .ok || $0.error == "invalid_grant" }, "\(answers.map(\.status))")
            for answer in answers where answer.status == .ok {
                let (meStatus, _) = try await server.graph("/me", token: answer.access)
                #expect(meStatus != .ok, "an access token a refresh issued around the removal does not work")
                let (refreshStatus, _) = try await server.refresh(try #require(answer.refresh), app: app)
                #expect(refreshStatus == .badRequest, "nor does its refresh token")
            }
            for token in refreshTokens {
                #expect(try await server.refresh(token, app: app).0 == .badRequest)
            }
        }
    }

    @Test("concurrent refreshes of one token within the grace window all succeed", arguments: TestEngine.enabled)
    func concurrentRefreshes(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try #require(try await server.loginResponse(app, scope: [.publicProfile])["refresh_token"] as? String)
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for _ in 0..<8 { group.addTask { try await server.refresh(token, app: app).0 } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: .ok, count: 8))
        }
    }

    @Test("two processes on one PostgreSQL refresh the same token at once: both answered, one rotation")
    func twoProcesses() async throws {
        try await withLiveServer(.postgres) { first in
            _ = try await first.makeUser()
            let app = try await first.makeApp()
            let token = try #require(try await first.loginResponse(app, scope: [.publicProfile])["refresh_token"] as? String)
            let second = try await Platform.open(
                first.platform.database.location,
                bcryptCost: 4,
                clock: first.clock,
                logger: Logger(label: "second")
            )
            var configuration = ServerConfiguration(host: "127.0.0.1", port: 0, database: first.platform.database.location)
            configuration.secret = first.configuration.secret
            let secondApp = try await KinshipApplication.make(platform: second, configuration: configuration, logger: Logger(label: "second"))
            let statuses = try await secondApp.test(.live) { [configuration] client in
                let other = LiveServer(platform: second, client: client, clock: first.clock, configuration: configuration, metrics: ServerMetrics())
                return try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for index in 0..<8 {
                        group.addTask { try await (index % 2 == 0 ? first : other).refresh(token, app: app).0 }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
            }
            await second.close()
            #expect(statuses == Array(repeating: .ok, count: 8))
            let record = try #require(
                try await first.platform.database.read { sql in
                    try await sql.raw("SELECT COUNT(*) AS n FROM refresh_tokens WHERE rotated_at IS NOT NULL").first(
                        decodingColumn: "n",
                        as: Int.self
                    )
                }
            )
            #expect(record == 1, "the token was rotated once; the other answers came through the grace window")
        }
    }

    @Test(
        "removing the app, revoking the refresh token or 90 days unused end refreshing; a refresh never widens the grant",
        arguments: TestEngine.enabled
    )
    func endings(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let login = try await server.loginResponse(app, scope: [.publicProfile, .email, .userFriends], untick: [.userFriends])
            let token = try #require(login["refresh_token"] as? String)
            let (widenStatus, widen) = try await server.refresh(token, app: app, scope: "public_profile user_friends")
            #expect(widenStatus == .badRequest && widen["error"] as? String == "invalid_scope")

            let (_, revokedEmail) = try await server.graph("/me/permissions/email", token: login["access_token"] as? String, method: .delete)
            #expect(revokedEmail["success"] as? Bool == true)
            let (_, narrower) = try await server.refresh(token, app: app)
            #expect((narrower["granted_scopes"] as? [String]) == ["public_profile"], "a revoked permission stays revoked")

            let (revokeStatus, _) = try await server.postForm(
                "/oauth/revoke",
                [
                    "token": try #require(narrower["refresh_token"] as? String),
                    "client_id": app.id,
                ]
            )
            #expect(revokeStatus == .ok)
            let (afterRevoke, _) = try await server.refresh(try #require(narrower["refresh_token"] as? String), app: app)
            #expect(afterRevoke == .badRequest)
            let (accessAfterRevoke, _) = try await server.graph("/me", token: narrower["access_token"] as? String)
            #expect(accessAfterRevoke != .ok, "revoking the refresh token ends its access tokens (RFC 7009 §2.1)")

            let again = try await server.loginResponse(app, scope: [.publicProfile])
            let (_, removed) = try await server.graph("/me/permissions", token: again["access_token"] as? String, method: .delete)
            #expect(removed["success"] as? Bool == true)
            let (afterRemoval, json) = try await server.refresh(try #require(again["refresh_token"] as? String), app: app)
            #expect(afterRemoval == .badRequest && (json["error_description"] as? String)?.contains("app was removed") == true)

            let idle = try #require(try await server.loginResponse(app, scope: [.publicProfile])["refresh_token"] as? String)
            server.clock.advance(by: 89 * 24 * 60 * 60)
            let (_, kept) = try await server.refresh(idle, app: app)
            let renewed = try #require(kept["refresh_token"] as? String, "89 days unused is still fine")
            server.clock.advance(by: 90 * 24 * 60 * 60 + 1)
            let (expired, expiredJSON) = try await server.refresh(renewed, app: app)
            #expect(expired == .badRequest && (expiredJSON["error_description"] as? String)?.contains("unused too long") == true)
        }
    }

    @Test(
        "an OpenID login's refresh carries a new id_token without the nonce, with the first login's auth_time",
        arguments: TestEngine.enabled
    )
    func refreshedIDToken(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let user = try await server.makeUser()
            let app = try await server.makeApp()
            let loggedInAt = server.clock.now
            let login = try await server.openIDLogin(app, scope: [.openID, "profile", .offlineAccess])
            server.clock.advance(by: 600)
            let (_, refreshed) = try await server.refresh(try #require(login["refresh_token"] as? String), app: app)
            let claims = try await server.verifiedIDToken(try #require(refreshed["id_token"] as? String))
            #expect(claims.sub == user.id && claims.nonce == nil && claims.auth_time == loggedInAt && claims.iat == server.clock.now)
        }
    }

    @Test("bad refresh requests get RFC 6749 errors", arguments: TestEngine.enabled)
    func badRequests(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let other = try await server.makeApp(name: "Other")
            let token = try #require(try await server.loginResponse(app, scope: [.publicProfile])["refresh_token"] as? String)
            for (form, error) in [
                (["grant_type": "refresh_token", "client_id": app.id], "invalid_request"),
                (["grant_type": "refresh_token", "client_id": app.id, "refresh_token": "krt_nonsense"], "invalid_grant"),
                (["grant_type": "refresh_token", "client_id": app.id, "refresh_token": "eyJhbGciOiJub25lIn0.e30."], "invalid_grant"),
                (["grant_type": "refresh_token", "client_id": other.id, "refresh_token": token], "invalid_grant"),
                (["grant_type": "password", "client_id": app.id], "unsupported_grant_type"),
            ] as [(FormParameters, String)] {
                let (status, json) = try await server.postForm("/oauth/access_token", form)
                #expect(status.code < 500 && json["error"] as? String == error, "\(form.formEncoded)")
            }
            let (status, _) = try await server.refresh(token, app: app)
            #expect(status == .ok, "a token another app sent stays usable by its own app")
        }
    }
}

extension LiveServer {
    /// A login through the dialog; returns the whole token response.
    func loginResponse(
        _ app: TestApp,
        scope: [Permission],
        untick: [Permission] = [],
        secret: String? = nil
    ) async throws -> [String: Any] {
        let (code, verifier) = try await authorizedCode(app, scope: scope, untick: untick)
        let (status, json) = try await exchange(code: code, app: app, verifier: verifier, secret: secret)
        #expect(status == .ok)
        return json
    }

    /// A code from the dialog (with PKCE) and its verifier, not exchanged yet.
    func authorizedCode(_ app: TestApp, scope: [Permission], untick: [Permission] = []) async throws -> (code: String, verifier: String) {
        let pkce = PKCEPair.make()
        let response = try await authorize(browser(), app, scope: scope, untick: untick, pkce: pkce)
        guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
        return (code, pkce.verifier)
    }

    /// `grant_type=refresh_token` at the token endpoint.
    func refresh(
        _ token: String,
        app: TestApp,
        secret: String? = nil,
        scope: String? = nil
    ) async throws
        -> (HTTPResponse.Status, [String: Any])
    {
        var form: FormParameters = ["grant_type": "refresh_token", "refresh_token": token, "client_id": app.id]
        form.append("client_secret", secret)
        form.append("scope", scope)
        return try await postForm("/oauth/access_token", form)
    }
}
