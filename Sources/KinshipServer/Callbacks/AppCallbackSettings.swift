import Foundation
import SQLKit

/// An app's callback URLs and the signing secret that signs them.
///
/// The signing secret is separate from the client secret, which the platform keeps only as a hash
/// and so could not sign with: it is made when callbacks are first set up (or on request), shown
/// once, and kept sealed with a key from the ``ServerSecret`` so the platform can sign with it.
public struct AppCallbackSettings: Sendable {
    let apps: AppStore
    let seal: SecretSeal

    public init(platform: Platform, secret: ServerSecret) {
        self.apps = platform.apps
        self.seal = SecretSeal(secret: secret, purpose: "app signing secrets")
    }

    /// The new settings of an app.
    public struct Change: Sendable {
        /// The deauthorize URL: a URL to set, `""` to remove, `nil` to leave as it is.
        public var deauthorizeURL: String?
        /// The data deletion URL: a URL to set, `""` to remove, `nil` to leave as it is.
        public var dataDeletionURL: String?
        /// Whether to replace the signing secret (the old one stops signing at once).
        public var rotateSigningSecret: Bool

        public init(deauthorizeURL: String? = nil, dataDeletionURL: String? = nil, rotateSigningSecret: Bool = false) {
            self.deauthorizeURL = deauthorizeURL
            self.dataDeletionURL = dataDeletionURL
            self.rotateSigningSecret = rotateSigningSecret
        }
    }

    /// Applies `change` to the app; returns the app as it is now and, when one was made, the new
    /// signing secret — the only time it is shown.
    ///
    /// Only the URLs `change` names are written, so two changes at once never undo each other. The
    /// secret is swapped only if it is still the one this call read: of several first setups at
    /// once, one makes the secret and shows it, the others find it made.
    ///
    /// - Throws: ``AppError/invalid(_:)`` for an unknown app, a URL the ``CallbackURLPolicy``
    ///   refuses, or a rotation that lost the race to another.
    public func update(appID: String, _ change: Change) async throws -> (app: AppRecord, signingSecret: String?) {
        for url in [change.deauthorizeURL, change.dataDeletionURL].compactMap({ $0 }) where !url.isEmpty {
            try CallbackURLPolicy.validate(url)
        }
        guard let app = try await apps.find(id: appID) else { throw AppError.invalid("No app has the client id \(appID).") }
        var newSecret: (clear: String, sealed: String)?
        if app.sealedSigningSecret == nil || change.rotateSigningSecret {
            let secret = Secrets.generate(prefix: "kss_", byteCount: 32)
            newSecret = (secret, try seal.seal(Data(secret.utf8), for: app.id))
        }
        let shown = try await apps.changing { [newSecret] sql -> String? in
            for (column, url) in [("deauthorize_callback_url", change.deauthorizeURL), ("data_deletion_callback_url", change.dataDeletionURL)] {
                guard let url else { continue }
                try await sql.raw("UPDATE apps SET \(unsafeRaw: column) = \(bind: url.isEmpty ? nil : url) WHERE id = \(bind: appID)").run()
            }
            guard let newSecret else { return nil }
            let swapped =
                try await sql.raw(
                    """
                    UPDATE apps SET sealed_signing_secret = \(bind: newSecret.sealed)
                    WHERE id = \(bind: appID) AND COALESCE(sealed_signing_secret, '') = \(bind: app.sealedSigningSecret ?? "")
                    RETURNING id
                    """
                ).first() != nil
            if swapped { return newSecret.clear }
            if change.rotateSigningSecret {
                throw AppError.invalid("The signing secret of \(appID) was replaced at the same moment by another command; run this one again.")
            }
            return nil
        }
        guard let updated = try await apps.find(id: appID) else { throw StorageError.vanished("app \(appID)") }
        return (updated, shown)
    }

    /// Sets a built-in app's deauthorize callback and its signing secret, which the app derives
    /// from the server secret as the platform does.
    func registerBuiltIn(appID: String, deauthorizeURL: String, signingSecret: String) async throws {
        try CallbackURLPolicy.validate(deauthorizeURL)
        let sealed = try seal.seal(Data(signingSecret.utf8), for: appID)
        try await apps.changing { sql in
            try await sql.raw(
                """
                UPDATE apps SET deauthorize_callback_url = \(bind: deauthorizeURL), sealed_signing_secret = \(bind: sealed)
                WHERE id = \(bind: appID)
                """
            ).run()
        }
    }

    /// The app's signing secret in clear, or `nil` when it has none or it was sealed with another
    /// server secret.
    func signingSecret(of app: AppRecord) -> String? {
        app.sealedSigningSecret.flatMap { seal.open($0, for: app.id) }.map { String(decoding: $0, as: UTF8.self) }
    }
}
