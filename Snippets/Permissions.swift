// Ask for permissions when they are needed, and respect the person's answer.

// snippet.hide
import Foundation
import KinshipCore
import KinshipKit

let configuration = KinshipConfiguration(serverURL: URL(string: "https://kinship.example.com")!, appID: "1234567890")
let session = try await Session(appID: configuration.appID, cache: MemoryTokenCache())
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: CustomSchemePresenter { _ in }
)
let graph = GraphClient(configuration: configuration, tokens: loginManager)

// snippet.show
// snippet.later
/// Shows the friend list, asking for `user_friends` first if this login does not have it.
func showFriends() async throws {
    let token = try await loginManager.accessTokenForCall()
    if !token.hasGranted(.userFriends) {
        // Permissions declined before are asked with auth_type=rerequest, or the dialog skips them.
        guard case .success(let login) = try await loginManager.requestPermissions([.userFriends]),
            login.grantedPermissions.contains(.userFriends)
        else {
            print("The friend list stays hidden: the person said no.")
            return
        }
    }
    let page = try await graph.friends(limit: 25)
    print(page.data.compactMap(\.name))
}
// snippet.end

// snippet.status
for status in try await graph.permissions() {
    print("\(status.permission): \(status.status.rawValue)")
}
// snippet.end

// snippet.revoke
// The person takes back one permission; the rest of the login stays.
try await graph.revoke(.userFriends)
// snippet.end
