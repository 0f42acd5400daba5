// Make Graph calls that recover from what can be recovered from, and explain the rest.

// snippet.hide
import Foundation
import KinshipKit

let configuration = KinshipConfiguration(serverURL: URL(string: "https://kinship.example.com")!, appID: "1234567890")
let session = try await Session(appID: configuration.appID, cache: MemoryTokenCache())
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: CustomSchemePresenter { _ in }
)
let graph = GraphClient(configuration: configuration, tokens: loginManager)

/// Stands in for the app's alert.
func showAlert(title: String, message: String) {}

// snippet.show
// snippet.recovery
let recovery = GraphRecovery(graph: graph, loginManager: loginManager)
do {
    let page = try await recovery.perform { graph throws(GraphError) in try await graph.friends(limit: 25) }
    print(page.data.count, "friends")
} catch let error as GraphError {
    switch error.category {
    case .recoverable:
        // The refresh was refused too: the session is closed, the person logs in again.
        print("Please log in again.")
    case .permission:
        // The person declined the permission again when asked.
        print("Without user_friends the list stays empty.")
    case .throttled, .transient, .other:
        print("Try again later: \(error)")
    }
    if error.shouldNotifyUser {
        showAlert(title: error.userTitle, message: error.userMessage)
    }
}
// snippet.end
