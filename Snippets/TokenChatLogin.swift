// Log in to Kinship Chat with the person's Kinship access token instead of a password.

// snippet.hide
import Foundation
import KinshipCore
import KinshipKit
import KinshipXMPP

let configuration = KinshipConfiguration(serverURL: URL(string: "https://kinship.example.com")!, appID: "1234567890")
let session = try await Session(appID: configuration.appID, cache: MemoryTokenCache())
let loginManager = LoginManager(
    configuration: configuration,
    session: session,
    presenter: CustomSchemePresenter { _ in }
)

// snippet.show
// snippet.login
// The login must carry `xmpp_login` ("Chat with your friends").
_ = try await loginManager.logIn(permissions: [.userFriends, .xmppLogin])
// snippet.end

// snippet.connect
let token = try await loginManager.accessTokenForCall()
let chat = XMPPConfiguration(
    jid: JID(local: token.userID, domain: "chat.example.com")!,
    tokenProvider: {
        // Asked at every login: a reconnect after the token expired uses a renewed one.
        try await loginManager.accessTokenForCall().tokenString
    }
)
let client = XMPPClient(configuration: chat)
do {
    try await client.connect()
} catch .notAuthorized {
    print("Chat refused the token: log in again with xmpp_login.")
} catch {
    print(error)  // Every XMPPError says what went wrong in words.
}
// snippet.end
