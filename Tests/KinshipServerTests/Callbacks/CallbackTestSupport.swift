import Foundation
import KinshipCore
import Testing

@testable import KinshipServer

/// An app whose deauthorize and data deletion callbacks go to `baseURL`; returns it with its
/// signing secret.
func makeAppWithCallbacks(_ server: LiveServer, baseURL: String) async throws -> (app: TestApp, signingSecret: String) {
    let app = try await server.makeApp(confidential: true, redirectURIs: [loopbackRedirect])
    let (_, secret) = try await AppCallbackSettings(platform: server.platform, secret: server.configuration.secret).update(
        appID: app.id,
        .init(deauthorizeURL: baseURL + "/deauthorize", dataDeletionURL: baseURL + "/data-deletion")
    )
    return (app, try #require(secret))
}

/// A person who logged in to `app`, with their token: made with `number` in their address.
func makePersonUsing(_ app: TestApp, _ server: LiveServer, number: Int) async throws -> (user: UserRecord, token: String) {
    let email = "person\(number)@example.com"
    let user = try await server.makeUser(name: "Person \(number)", email: email, username: nil)
    return (user, try await server.logInAndGetToken(app, scope: [], login: email))
}

/// The callbacks of the outbox about `userID`, newest first.
func callbacks(of userID: String, _ platform: Platform) async throws -> [CallbackDelivery] {
    try await platform.callbacks.recent(limit: 1000).filter { $0.userId == userID }
}
