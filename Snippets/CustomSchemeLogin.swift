// Log in from an app that the platform opens again with a custom-scheme URL
// (`kinship{APP_ID}://authorize?code=…`), as iOS apps do.

// snippet.hide
import Foundation
import KinshipKit

let configuration = KinshipConfiguration(serverURL: URL(string: "https://kinship.example.com")!, appID: "1234567890")
let session = try await Session(appID: configuration.appID, cache: MemoryTokenCache())

/// Stands in for `UIApplication.shared.open(_:)` or an `ASWebAuthenticationSession`.
func openInBrowser(_ url: URL) async throws {}

// snippet.show
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: CustomSchemePresenter { url in try await openInBrowser(url) }
)

/// Called with every URL the app is opened with (`onOpenURL`, the app delegate).
func handleOpened(_ url: URL) async {
    if await loginManager.handleOpenURL(url) { return }
    // Not a login answer: the app's own deep link.
}
