import Foundation
import HTTPTypes
import KinshipCore
import Testing

@testable import KinshipServer

/// `/chat/auth`, as Prosody's mod_auth_kinship calls it for every chat login (the module itself is
/// tested against a real Prosody in scripts/e2e/chat_login.py).
@Suite("Chat login checks", .timeLimit(.minutes(3)))
struct ChatAuthTests {
    /// Asks `/chat/auth` as the chat server does; returns the status and the answer.
    static func check(
        _ server: LiveServer,
        user: String,
        token: String,
        secret: String? = nil
    ) async throws
        -> (HTTPResponse.Status, [String: Any])
    {
        let shared = secret ?? ChatServerConfiguration.sharedSecret(from: server.configuration.secret)
        return try await server.postForm("/chat/auth", ["user": user, "token": token], headers: [.authorization: "Bearer " + shared])
    }

    @Test("a token may log in to chat only as its own person, with xmpp_login granted, while it is valid", arguments: TestEngine.enabled)
    func rules(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let app = try await server.makeApp()
            let chat = try await server.logInAndGetToken(app, scope: [.xmppLogin])
            let linPlain = try await server.logInAndGetToken(app, scope: [], login: "lin@example.com")

            let allowed = try await Self.check(server, user: ada.id, token: chat)
            #expect(allowed.0 == .ok && allowed.1["allowed"] as? Bool == true)
            #expect(try await Self.check(server, user: ada.id, token: chat, secret: "wrong").0 == .unauthorized)
            #expect(try await server.postForm("/chat/auth", ["user": ada.id, "token": chat]).0 == .unauthorized, "no secret at all")
            let other = try await Self.check(server, user: lin.id, token: chat)
            #expect(other.0 == .forbidden && (other.1["reason"] as? String)?.contains("another person") == true)
            let withoutChat = try await Self.check(server, user: lin.id, token: linPlain)
            #expect(withoutChat.0 == .forbidden && (withoutChat.1["reason"] as? String)?.contains("xmpp_login") == true)
            #expect(try await Self.check(server, user: ada.id, token: "kat_never-issued").0 == .forbidden)
            #expect(try await Self.check(server, user: "", token: chat).0 == .badRequest)

            _ = try await server.platform.users.suspend(userID: lin.id)
            let linChat = try await server.logInAndGetToken(app, scope: [.xmppLogin], login: "ada@example.com")
            #expect(try await Self.check(server, user: ada.id, token: linChat).0 == .ok)
            server.clock.advance(by: server.configuration.shortTokenLifetime)
            let expired = try await Self.check(server, user: ada.id, token: chat)
            #expect(expired.0 == .forbidden && (expired.1["reason"] as? String)?.contains("expired") == true)
        }
    }

    @Test("taking xmpp_login back, or removing the app, stops chat logins with that token at once", arguments: TestEngine.enabled)
    func revocation(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.xmppLogin])
            #expect(try await server.graph("/me/permissions/xmpp_login", token: token, method: .delete).0 == .ok)
            #expect(try await Self.check(server, user: ada.id, token: token).0 == .forbidden)
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let linToken = try await server.logInAndGetToken(app, scope: [.xmppLogin], login: "lin@example.com")
            #expect(try await Self.check(server, user: lin.id, token: linToken).0 == .ok)
            #expect(try await server.graph("/me/permissions", token: linToken, method: .delete).0 == .ok)
            #expect(try await Self.check(server, user: lin.id, token: linToken).0 == .forbidden)
        }
    }

    /// Asks `/chat/logins` which of these tokens' chat logins ended; returns the status and the hashes.
    static func ended(_ server: LiveServer, _ tokens: [String], secret: String? = nil) async throws -> (HTTPResponse.Status, Set<String>) {
        var form = FormParameters()
        for token in tokens { form.append("token_hash", Secrets.hash(token)) }
        let shared = secret ?? ChatServerConfiguration.sharedSecret(from: server.configuration.secret)
        let (status, json) = try await server.postForm("/chat/logins", form, headers: [.authorization: "Bearer " + shared])
        return (status, Set(json["ended"] as? [String] ?? []))
    }

    @Test(
        "the chat server learns which live logins ended: xmpp_login taken back, app removed, password changed, suspended, deleted",
        arguments: TestEngine.enabled
    )
    func endedLogins(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let app = try await server.makeApp()
            var tokens: [String: String] = [:]
            var people: [String: UserRecord] = [:]
            for name in ["kept", "ungranted", "removed", "password", "suspended", "deleted"] {
                people[name] = try await server.makeUser(name: "Person \(name)", email: "\(name)@example.com", username: nil)
                tokens[name] = try await server.logInAndGetToken(app, scope: [.xmppLogin], login: "\(name)@example.com")
            }
            let all = Array(tokens.values) + ["kat_never-issued"]
            #expect(try await Self.ended(server, all).1 == [Secrets.hash("kat_never-issued")])
            server.clock.advance(by: 5)

            #expect(try await server.graph("/me/permissions/xmpp_login", token: tokens["ungranted"]!, method: .delete).0 == .ok)
            #expect(try await server.graph("/me/permissions", token: tokens["removed"]!, method: .delete).0 == .ok)
            let person = try #require(people["password"])
            #expect(try await server.platform.users.changePassword(of: person, to: "a new password", keepingSession: "none"))
            #expect(try await server.platform.users.suspend(userID: people["suspended"]!.id))
            #expect(try await server.platform.users.delete(people["deleted"]!) != nil)
            server.clock.advance(by: server.configuration.shortTokenLifetime)

            let (status, ended) = try await Self.ended(server, all)
            #expect(status == .ok)
            #expect(
                ended
                    == Set(
                        ["ungranted", "removed", "password", "suspended", "deleted"].map { Secrets.hash(tokens[$0]!) } + [
                            Secrets.hash("kat_never-issued")
                        ]
                    ),
                "an expired token keeps its live session"
            )
            #expect(try await Self.ended(server, all, secret: "wrong").0 == .unauthorized)
            let tooMany = (0...ChatLogins.batchLimit).map { "kat_\($0)" }
            #expect(try await Self.ended(server, tooMany).0 == .badRequest)
        }
    }

    @Test("many chat logins checked at once are each answered right", arguments: TestEngine.enabled)
    func parallel(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let lin = try await server.makeUser(name: "Lin Wei", email: "lin@example.com", username: "lin")
            let app = try await server.makeApp()
            let token = try await server.logInAndGetToken(app, scope: [.xmppLogin])
            let statuses = try await withThrowingTaskGroup(of: (Bool, HTTPResponse.Status).self) { group in
                for index in 0..<32 {
                    group.addTask {
                        (index.isMultiple(of: 2), try await Self.check(server, user: index.isMultiple(of: 2) ? ada.id : lin.id, token: token).0)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.allSatisfy { $0.0 ? $0.1 == .ok : $0.1 == .forbidden })
        }
    }

    @Test("an app its developer did not allow chat may not ask for xmpp_login", arguments: TestEngine.enabled)
    func appMustBeAllowed(engine: TestEngine) async throws {
        try await withLiveServer(engine) { server in
            let ada = try await server.makeUser()
            let (record, _) = try await server.platform.apps.create(
                name: "Notes",
                redirectURIs: [loopbackRedirect],
                isConfidential: false,
                ownerID: ada.id,
                mayChat: false
            )
            let dialog = try await server.browser().get(server.dialogURI(TestApp(record: record, secret: ""), scope: [.xmppLogin], pkce: .make()))
            #expect(dialog.location?.contains("error=invalid_scope") == true)
            #expect(dialog.location?.contains("xmpp_login") == true)
        }
    }
}
