import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// What `kinship serve` counts for Prometheus, read from the server's registry as a scrape would.
@Suite("Metrics", .timeLimit(.minutes(3)))
struct MetricsTests {
    @Test(
        "consents, tokens and Graph calls made at once are each counted: declined permissions by name, calls by path shape and error code",
        arguments: TestEngine.enabled
    )
    func counted(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            var logins: [String] = []
            for index in 0..<6 {
                logins.append(try await server.makeUser(name: "Person \(index)", email: "p\(index)@example.com", username: nil).email)
            }
            let people = logins
            try await server.withBrowsers(people.count) { browsers in
                _ = try await concurrently(browsers) { index, browser in
                    let pkce = PKCEPair.make()
                    let response = try await server.authorize(
                        browser,
                        app,
                        scope: [.publicProfile, .email, .userFriends],
                        untick: index < 2 ? [.email] : [],
                        pkce: pkce,
                        login: people[index]
                    )
                    guard case .code(let code, _) = response else { throw BrowserError.noRedirect(0) }
                    let answer = try await browser.post(
                        "/oauth/access_token",
                        form: [
                            "grant_type": "authorization_code", "code": code, "redirect_uri": loopbackRedirect, "client_id": app.id,
                            "code_verifier": pkce.verifier,
                        ]
                    )
                    let json = try JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
                    let token = try #require(json?["access_token"] as? String, "\(answer.status): \(answer.body)")
                    let bearer: HTTPFields = [.authorization: "Bearer \(token)"]
                    #expect(try await browser.get("/me", headers: bearer).status == .ok)
                    #expect(try await browser.get("/me/friends", headers: bearer).status == .ok)
                    #expect(
                        try await browser.get("/100000000\(index)/friends", headers: [.authorization: "Bearer kat_not-a-token"]).status
                            == .unauthorized
                    )
                }
            }
            let metrics = server.metrics
            let platform = server.platform
            #expect(await metrics.reading("kinship_dialog_consents_total", from: platform) == 6)
            #expect(await metrics.reading(#"kinship_dialog_declined_permissions_total{permission="email"}"#, from: platform) == 2)
            #expect(await metrics.reading(#"kinship_tokens_issued_total{grant_type="authorization_code"}"#, from: platform) == 6)
            #expect(await metrics.reading(#"kinship_logins_total{outcome="ok"}"#, from: platform) == 6)
            #expect(await metrics.reading(#"kinship_graph_calls_total{path="/me",error_code="none"}"#, from: platform) == 6)
            #expect(await metrics.reading(#"kinship_graph_calls_total{path="/me/friends",error_code="none"}"#, from: platform) == 6)
            #expect(
                await metrics.reading(#"kinship_graph_calls_total{path="/{id}/friends",error_code="190"}"#, from: platform) == 6,
                "every person's id counts as one path"
            )
            #expect(
                await metrics.reading(#"kinship_http_requests_total{route="/oauth/access_token",method="POST",status="200"}"#, from: platform) == 6
            )
            #expect(
                await metrics.reading(#"kinship_http_request_duration_seconds_count{route="/oauth/access_token",method="POST"}"#, from: platform) == 6
            )
            #expect(await metrics.reading("kinship_callback_outbox_depth", from: platform) == 0)
        }
    }

    @Test("writes waiting for SQLite's one writer are counted")
    func poolWaits() async throws {
        try await withLiveServer(.sqlite) { server in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<24 {
                    group.addTask { _ = try await server.makeUser(name: "Person \(index)", email: "w\(index)@example.com", username: nil) }
                }
                try await group.waitForAll()
            }
            let waits = await server.metrics.reading(#"kinship_database_pool_waits_total{pool="writer"}"#, from: server.platform)
            #expect((waits ?? 0) > 0, "24 sign-ups at once queue at the writer: \(String(describing: waits))")
        }
    }

    @Test("/healthz and /readyz answer while the database does", arguments: TestEngine.enabled)
    func health(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let healthz = try await server.browser().get("/healthz")
            #expect(healthz.status == .ok)
            let readyz = try await server.browser().get("/readyz")
            #expect(readyz.status == .ok && readyz.body == "ready")
        }
    }

    @Test("a Graph path's shape keeps edges and replaces ids and names")
    func graphPathShapes() {
        #expect(GraphPathShape.of("") == "/")
        #expect(GraphPathShape.of("me") == "/me")
        #expect(GraphPathShape.of("me/friends") == "/me/friends")
        #expect(GraphPathShape.of("100004567/picture") == "/{id}/picture")
        #expect(GraphPathShape.of("me/permissions/email") == "/me/permissions/{name}")
        #expect(GraphPathShape.of("me/guess/what/else") == "/me/{unknown}/{unknown}")
        #expect(GraphPathShape.of("../../etc/passwd") == "/{id}/{unknown}/{unknown}")
    }
}
