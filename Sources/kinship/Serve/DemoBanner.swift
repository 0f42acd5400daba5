import Foundation
import KinshipServer

/// What `kinship serve --demo` prints: the demo app and the people to log in as.
enum DemoBanner {
    /// Apps named when the database has some already; `kinship apps list` lists them all.
    static let appsShown = 10

    static func seedAndPrint(_ platform: Platform, builtInAppIDs: Set<String>) async throws {
        if let credentials = try await DemoData.seedIfEmpty(platform, builtInAppIDs: builtInAppIDs) {
            print("Demo data created.")
            print("  app   \(credentials.app.name)  client_id=\(credentials.app.id)  client_secret=\(credentials.clientSecret)")
            print("        public app (PKCE); redirects: http://127.0.0.1:ANY-PORT/callback or kinship\(credentials.app.id)://authorize")
            print("        the secret is shown only now; it is needed for debug_token and long-lived tokens")
            for user in credentials.users {
                print("  user  \(user.name)  login=\(user.email)  password=\(DemoData.password)  id=\(user.id)")
            }
        } else {
            print("Demo data not created: the database already has accounts or apps.")
            let apps = try await platform.apps.list()
            for app in apps.prefix(appsShown) {
                print("  app   \(app.name)  client_id=\(app.id)")
            }
            if apps.count > appsShown { print("  … and \(apps.count - appsShown) more apps: kinship apps list") }
        }
        fflush(nil)
    }
}
