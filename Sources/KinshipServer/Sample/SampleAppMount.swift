import Hummingbird
import KinshipSample
import Logging

/// Registers the sample social app on the platform (a confidential app with a fixed id) and serves
/// it under `/sample`. Its client secret is kept among the server's keys, so every server process
/// and every restart use the same one.
enum SampleAppMount {
    /// The sample app's client id.
    static let appID = "1"

    /// Registers and mounts the app; returns whether it is served.
    static func mount(
        on router: Router<KinshipRequestContext>, platform: Platform, configuration: ServerConfiguration, issuer: Issuer,
        logger: Logger
    ) async throws -> Bool {
        let redirectURI: String
        if let publicURL = configuration.publicURL {
            redirectURI = Issuer(publicURL).url + SampleApp.callbackPath
        } else if RedirectURIPolicy.isLoopback(host: configuration.host) {
            // A loopback redirect URI matches on any port (RFC 8252 §7.3), so `--port 0` works.
            redirectURI = Issuer.loopbackURL(host: configuration.host, port: nil) + SampleApp.callbackPath
        } else {
            logger.warning("The sample app is not served: give --public-url (https) when listening beyond loopback",
                metadata: ["host": "\(configuration.host)"])
            return false
        }
        let secret = try await platform.serverKeys.key(named: "sample-app-secret")
        try await platform.apps.registerBuiltIn(
            id: appID, name: SampleApp.name, redirectURIs: [redirectURI], isConfidential: true, secret: secret)
        let sample = try await SampleApp.make(
            appID: appID, clientSecret: secret, platformURL: { issuer.url }, secureCookies: issuer.url.hasPrefix("https://"))
        sample.addRoutes(to: router)
        logger.debug("Sample app registered", metadata: ["app.id": "\(appID)", "redirect_uri": "\(redirectURI)"])
        return true
    }
}
