// Log a person in from a desktop or command-line app and read their profile.

// snippet.hide
import Foundation
import KinshipCore
import KinshipKit
import KinshipLoopback

// snippet.show
// snippet.configure
let configuration = KinshipConfiguration(
    serverURL: URL(string: "http://127.0.0.1:8080")!,
    appID: "1234567890"
)
let session = try await Session(
    appID: configuration.appID,
    cache: FileTokenCache(folder: FileTokenCache.defaultFolder())
)
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: LoopbackPresenter { url in print("Log in at \(url)") }
)
// snippet.end

// snippet.cached
if await session.state == .createdTokenLoaded {
    // A token from an earlier run is still good (or its refresh token can renew it): no dialog.
    try await session.openWithCachedToken()
}
// snippet.end

// snippet.login
if await !session.state.isOpen {
    switch try await loginManager.logIn(permissions: [.email, .userFriends]) {
    case .success(let login):
        print("Logged in as \(login.token.userID)")
        if login.declinedPermissions.contains(.email) {
            print("No email address: the app asks again when it needs one.")
        }
    case .cancelled:
        print("Cancelled: the app goes on as before, logged out.")
    }
}
// snippet.end

// snippet.profile
let graph = GraphClient(configuration: configuration, tokens: loginManager)
let profile = try await Profile.loadCurrent(using: graph)
print("Hello, \(profile.name)")
if let email = profile.email { print("Your address: \(email)") }
// snippet.end
