import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// What a Graph client library written for Facebook needs beyond the dialog: the token endpoint by
/// GET, app access tokens, and several objects in one call.
@Suite("Facebook's clients", .timeLimit(.minutes(3)))
struct FacebookClientTests {
    @Test("the token endpoint answers GET with the parameters in the query, for a code and for a long-lived exchange", arguments: TestEngine.enabled)
    func tokenEndpointByGet(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp(confidential: true, redirectURIs: [loopbackRedirect])
            let pkce = PKCEPair.make()
            guard case .code(let code, _) = try await server.authorize(server.browser(), app, scope: [.email], pkce: pkce) else {
                Issue.record("no code")
                return
            }
            let exchange: FormParameters = [
                "client_id": app.id, "client_secret": app.secret, "redirect_uri": loopbackRedirect, "code": code,
                "code_verifier": pkce.verifier,
            ]
            let (status, json) = try await server.getJSON("/oauth/access_token?" + exchange.formEncoded)
            #expect(status == .ok, "\(json)")
            let token = try #require(json["access_token"] as? String)
            #expect(json["token_type"] as? String == "bearer")

            let long: FormParameters = [
                "grant_type": "fb_exchange_token", "client_id": app.id, "client_secret": app.secret, "fb_exchange_token": token,
            ]
            let (longStatus, longJSON) = try await server.getJSON("/v19.0/oauth/access_token?" + long.formEncoded)
            #expect(longStatus == .ok, "\(longJSON)")
            #expect((longJSON["expires_in"] as? Int ?? 0) > 86_400)

            let (again, againJSON) = try await server.getJSON("/oauth/access_token?" + exchange.formEncoded)
            #expect(again == .badRequest)
            #expect(againJSON["error"] as? String == "invalid_grant", "a code is used once, by GET as by POST")
            let (missing, missingJSON) = try await server.getJSON("/oauth/access_token?client_id=\(app.id)")
            #expect(missing == .badRequest)
            #expect(missingJSON["error"] as? String == "invalid_request")
        }
    }

    @Test("client_credentials gives a confidential app its app access token, the same to every concurrent caller", arguments: TestEngine.enabled)
    func appAccessToken(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp(confidential: true)
            let form: FormParameters = ["grant_type": "client_credentials", "client_id": app.id, "client_secret": app.secret]
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        let (status, json) = try await server.postForm("/oauth/access_token", form)
                        return (status, json["access_token"] as? String)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == .ok })
            let tokens = Set(answers.compactMap(\.1))
            #expect(tokens.count == 1)
            let token = try #require(tokens.first)
            #expect(token.hasPrefix("\(app.id)|kapp_"))
            #expect(!token.contains(app.secret), "the token does not carry the secret")

            let (byGet, byGetJSON) = try await server.getJSON("/oauth/access_token?" + form.formEncoded)
            #expect(byGet == .ok)
            #expect(byGetJSON["access_token"] as? String == token)
            #expect(byGetJSON["expires_in"] == nil)

            let (noSecret, noSecretJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "client_credentials", "client_id": app.id]
            )
            #expect(noSecret == .unauthorized)
            #expect(noSecretJSON["error"] as? String == "invalid_client")
            let (wrong, _) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "client_credentials", "client_id": app.id, "client_secret": "wrong"]
            )
            #expect(wrong == .unauthorized)

            let native = try await server.makeApp(name: "Native")
            let (publicApp, publicJSON) = try await server.postForm(
                "/oauth/access_token",
                ["grant_type": "client_credentials", "client_id": native.id, "client_secret": native.secret]
            )
            #expect(publicApp == .badRequest)
            #expect(publicJSON["error"] as? String == "unauthorized_client")
        }
    }

    @Test("an app access token works on debug_token and app-level Graph calls, and not where a person must speak", arguments: TestEngine.enabled)
    func appLevelGraph(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            let app = try await server.makeApp(confidential: true, redirectURIs: [loopbackRedirect])
            let userToken = try await server.logInAndGetToken(app, scope: [.email])
            let appToken = try await appAccessToken(server, app)

            let query: FormParameters = ["input_token": userToken, "access_token": appToken]
            let (debugStatus, debugJSON) = try await server.getJSON("/debug_token?" + query.formEncoded)
            #expect(debugStatus == .ok)
            let data = try #require(debugJSON["data"] as? [String: Any])
            #expect(data["user_id"] as? String == ada.id)
            #expect(data["is_valid"] as? Bool == true)
            let selfQuery: FormParameters = ["input_token": appToken, "access_token": appToken]
            let (_, selfJSON) = try await server.getJSON("/debug_token?" + selfQuery.formEncoded)
            #expect((selfJSON["data"] as? [String: Any])?["type"] as? String == "APP")
            let forged: FormParameters = ["input_token": userToken, "access_token": "\(app.id)|kapp_forged"]
            let (forgedStatus, _) = try await server.getJSON("/debug_token?" + forged.formEncoded)
            #expect(forgedStatus == .unauthorized)

            let (appNode, appJSON) = try await server.graph("/\(app.id)", token: appToken)
            #expect(appNode == .ok)
            #expect(appJSON["name"] as? String == "Demo")
            let (_, appByPerson) = try await server.graph("/\(app.id)?fields=id,name", token: userToken)
            #expect(appByPerson["id"] as? String == app.id)
            let (badField, badFieldJSON) = try await server.graph("/\(app.id)?fields=secret", token: appToken)
            #expect(badField == .badRequest)
            #expect(errorCode(badFieldJSON) == 100)

            let (person, personJSON) = try await server.graph("/\(ada.id)?fields=id,name,email,birthday", token: appToken)
            #expect(person == .ok)
            #expect(personJSON["email"] as? String == "ada@example.com", "the person granted email to the app")
            #expect(personJSON["birthday"] == nil)
            let (stranger, strangerJSON) = try await server.graph("/\(grace.id)", token: appToken)
            #expect(stranger == .notFound, "Grace does not use the app")
            #expect(errorCode(strangerJSON) == 803)

            let (me, meJSON) = try await server.graph("/me", token: appToken)
            #expect(me == .badRequest)
            #expect(errorCode(meJSON) == GraphErrorCode.userTokenRequired)
            let (friends, friendsJSON) = try await server.graph("/me/friends", token: appToken)
            #expect(friends == .badRequest)
            #expect(errorCode(friendsJSON) == GraphErrorCode.userTokenRequired)

            let (permissions, permissionsJSON) = try await server.graph("/\(ada.id)/permissions", token: appToken)
            #expect(permissions == .ok)
            let listed = (permissionsJSON["data"] as? [[String: Any]] ?? []).compactMap { $0["permission"] as? String }
            #expect(Set(listed) == ["public_profile", "email"])
            let (removed, _) = try await server.graph("/\(ada.id)/permissions", token: appToken, method: .delete)
            #expect(removed == .ok)
            let (after, afterJSON) = try await server.graph("/me", token: userToken)
            #expect(after == .unauthorized)
            #expect(((afterJSON["error"] as? [String: Any])?["error_subcode"] as? Int) == GraphErrorCode.subcodeAppNotAuthorized)
            let (gone, _) = try await server.graph("/\(ada.id)", token: appToken)
            #expect(gone == .notFound, "a person who removed the app is no longer visible to it")

            let (forgedGraph, forgedJSON) = try await server.graph("/\(app.id)", token: "\(app.id)|\(app.secret)x")
            #expect(forgedGraph == .unauthorized)
            #expect(errorCode(forgedJSON) == 190)
            let (secretToken, _) = try await server.graph("/\(app.id)", token: "\(app.id)|\(app.secret)")
            #expect(secretToken == .ok, "APP_ID|APP_SECRET is an app token, as on Facebook")
        }
    }

    @Test("?ids=A,B reads several objects keyed by id, and names the ones the caller may not see", arguments: TestEngine.enabled)
    func severalObjects(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let grace = try await server.makeUser(name: "Grace Hopper", email: "grace@example.com", username: "grace")
            let linus = try await server.makeUser(name: "Linus Torvalds", email: "linus@example.com", username: "linus")
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.email])
            _ = try await server.logInAndGetToken(app, scope: [], login: "grace@example.com")

            let (status, json) = try await server.graph("/?ids=me,\(grace.id),\(app.id)&fields=id,name", token: token)
            #expect(status == .ok, "\(json)")
            #expect(Array(json.keys).sorted() == ["me", grace.id, app.id].sorted())
            #expect((json["me"] as? [String: Any])?["id"] as? String == ada.id)
            #expect((json[grace.id] as? [String: Any])?["name"] as? String == "Grace Hopper")
            #expect((json[app.id] as? [String: Any])?["name"] as? String == "Demo")

            let (hidden, hiddenJSON) = try await server.graph("/?ids=\(grace.id),\(linus.id),nobody", token: token)
            #expect(hidden == .notFound)
            #expect(errorCode(hiddenJSON) == 803)
            let message = (hiddenJSON["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(message.hasSuffix("\(linus.id),nobody"))

            let many = (0...GraphService.idsLimit).map { "\($0)" }.joined(separator: ",")
            let (tooMany, tooManyJSON) = try await server.graph("/?ids=\(many)", token: token)
            #expect(tooMany == .badRequest)
            #expect(errorCode(tooManyJSON) == 100)
            let (noIDs, noIDsJSON) = try await server.graph("/", token: token)
            #expect(noIDs == .notFound)
            #expect(errorCode(noIDsJSON) == 100)
            let (noToken, _) = try await server.graph("/?ids=\(grace.id)", token: nil)
            #expect(noToken == .unauthorized)

            let batch = #"[{"method":"GET","relative_url":"?ids=me,\#(grace.id)&fields=name"}]"#
            let (batchStatus, _) = try await server.graph("/", token: token, method: .post, form: ["batch": batch])
            #expect(batchStatus == .ok)
        }
    }

    private func appAccessToken(_ server: LiveServer, _ app: TestApp) async throws -> String {
        let (_, json) = try await server.postForm(
            "/oauth/access_token",
            ["grant_type": "client_credentials", "client_id": app.id, "client_secret": app.secret]
        )
        return try #require(json["access_token"] as? String)
    }

    private func errorCode(_ json: [String: Any]) -> Int? {
        (json["error"] as? [String: Any])?["code"] as? Int
    }
}
