import Hummingbird
import Logging

extension BuiltInApp {
    /// Registers the app and mounts its routes; returns `false`, with a warning, when it cannot be
    /// served (a non-loopback host without a public URL gives it no redirect URI to register).
    func install(
        on router: Router<KinshipRequestContext>,
        platform: Platform,
        configuration: ServerConfiguration,
        issuer: Issuer,
        logger: Logger
    ) async throws -> Bool {
        let redirectURI: String
        if let publicURL = configuration.publicURL {
            redirectURI = Issuer(publicURL).url + callbackPath
        } else if RedirectURIPolicy.isLoopback(host: configuration.host) {
            // A loopback redirect URI matches on any port (RFC 8252 §7.3), so `--port 0` works.
            redirectURI = Issuer.loopbackURL(host: configuration.host, port: nil) + callbackPath
        } else {
            logger.warning(
                "\(name) is not served: give --public-url (https) when listening beyond loopback",
                metadata: ["host": "\(configuration.host)"]
            )
            return false
        }
        let secret = configuration.secret.secret(for: "built-in app \(id) client secret")
        try await platform.apps.registerBuiltIn(id: id, name: name, redirectURIs: [redirectURI], isConfidential: true, secret: secret)
        let credentials = Credentials(
            clientID: id,
            clientSecret: secret,
            signingSecret: signingSecret(configuration),
            platformURL: { issuer.url },
            secureCookies: issuer.url.hasPrefix("https://")
        )
        try await mount(credentials, router)
        logger.debug("Built-in app registered", metadata: ["app.id": "\(id)", "redirect_uri": "\(redirectURI)"])
        return true
    }

    /// Registers the app's deauthorize callback at `baseURL`, where the server now listens (a
    /// server on port 0 knows its port only then), signed with the app's derived signing secret.
    func registerCallbacks(baseURL: String, settings: AppCallbackSettings, configuration: ServerConfiguration, logger: Logger) async {
        guard let deauthorizePath else { return }
        do {
            try await settings.registerBuiltIn(
                appID: id,
                deauthorizeURL: baseURL + deauthorizePath,
                signingSecret: signingSecret(configuration)
            )
        } catch {
            logger.warning("\(name) gets no deauthorize callback", metadata: ["reason": "\(error)"])
        }
    }

    private func signingSecret(_ configuration: ServerConfiguration) -> String {
        configuration.secret.secret(for: "built-in app \(id) signing secret")
    }
}
