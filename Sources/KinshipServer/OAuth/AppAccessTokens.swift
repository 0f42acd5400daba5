import Crypto
import Foundation
import KinshipCore

/// App access tokens, as Facebook's: `APP_ID|…`, given by `grant_type=client_credentials` to an
/// app that proves itself with its secret, and speaking for the app rather than for a person
/// (`debug_token`, `GET /{app-id}`, and a person's node and permissions when they use the app).
///
/// A token is `APP_ID|kapp_` followed by an HMAC, under a key every process derives from the
/// ``ServerSecret``, of the app id and the hash of the app's current secret. Nothing is stored: the
/// same app gets the same token each time (as on Facebook), the token ends when the app's secret
/// stops working (at a rotation, once its grace period is over) or the app is deleted, and a
/// stolen database holds no token. `APP_ID|APP_SECRET` is accepted wherever an app token is, as
/// Facebook accepts it.
struct AppAccessTokens: Sendable {
    /// The key's bytes (`SymmetricKey` is not `Sendable`).
    private let key: [UInt8]
    let apps: AppStore

    static let marker = "kapp_"

    init(apps: AppStore, secret: ServerSecret) {
        self.apps = apps
        self.key = secret.key(for: "app access tokens").withUnsafeBytes { Array($0) }
    }

    /// The app access token of `app`.
    func token(for app: AppRecord) -> String {
        "\(app.id)|\(Self.marker)\(mac(app))"
    }

    /// Whether `token` looks like an app access token (`APP_ID|…`) rather than a person's.
    static func isAppToken(_ token: String) -> Bool {
        // Bytes, not Foundation's `contains(_: StringProtocol)`: that goes through NSString and
        // CFStringFind, 1% of a GET /me's CPU in perf, on every Graph call.
        token.utf8.contains(UInt8(ascii: "|"))
    }

    /// The app `token` speaks for, or `nil` when it is not a valid app access token.
    func app(for token: String) async throws -> AppRecord? {
        guard let bar = token.firstIndex(of: "|") else { return nil }
        let appID = String(token[..<bar])
        let proof = String(token[token.index(after: bar)...])
        guard !appID.isEmpty, !proof.isEmpty, let app = try await apps.find(id: appID) else { return nil }
        let now = apps.clock.now
        if proof.hasPrefix(Self.marker) {
            let presented = String(proof.dropFirst(Self.marker.count))
            // Tokens made with the secret before a rotation work as long as that secret does.
            let matches = app.secretHashes(at: now).reduce(false) { $0 || ConstantTime.equals(presented, mac(app.id, secretHash: $1)) }
            return matches ? app : nil
        }
        return app.verifySecret(proof, at: now) ? app : nil
    }

    private func mac(_ app: AppRecord) -> String {
        mac(app.id, secretHash: app.secretHash)
    }

    private func mac(_ appID: String, secretHash: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Array("\(appID)\n\(secretHash)".utf8), using: SymmetricKey(data: key))
        return Base64URL.encode(code)
    }
}
