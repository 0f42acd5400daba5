import KinshipSample
import KinshipServer

extension BuiltInApp {
    /// The sample social app at `/sample`: registered with the fixed client id `1`.
    static let sample = BuiltInApp(
        id: "1",
        name: SampleApp.name,
        callbackPath: SampleApp.callbackPath,
        deauthorizePath: SampleApp.deauthorizePath
    ) { credentials, router in
        let app = try await SampleApp.make(
            appID: credentials.clientID,
            clientSecret: credentials.clientSecret,
            signingSecret: credentials.signingSecret,
            platformURL: credentials.platformURL,
            secureCookies: credentials.secureCookies
        )
        app.addRoutes(to: router)
    }
}
