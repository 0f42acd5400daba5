import KinshipCore
import KinshipKit

/// What the client commands tell the person when they cannot go on, with the way forward.
enum CLIError: Error, CustomStringConvertible {
    case notLoggedIn(account: String)
    case unreadableAccount(path: String)
    case graph(GraphError, command: String)
    /// The saved login was not granted `xmpp_login`.
    case noChatPermission(account: String)
    /// The Kinship server could not be asked where its chat server is.
    case chatServerUnknown(String)
    /// No friend (or more than one) matches what was typed.
    case noSuchFriend(String, candidates: [String])

    var description: String {
        switch self {
        case .notLoggedIn(let account):
            "Not logged in\(account == "default" ? "" : " as \(account)"). Run `kinship login --server URL --app-id ID` first."
        case .unreadableAccount(let path):
            "The saved login \(path) cannot be read; run `kinship login` again."
        case .noChatPermission(let account):
            "This login may not chat: the app was not granted xmpp_login. Run `kinship login --permissions xmpp_login"
                + (account == "default" ? "" : " --account \(account)") + "` and allow chat."
        case .chatServerUnknown(let reason):
            "\(reason). Say where the chat server is with --domain, --host and --port."
        case .noSuchFriend(let typed, let candidates):
            candidates.isEmpty
                ? "No friend matches \"\(typed)\"; `kinship chat friends` lists them."
                : "\"\(typed)\" matches \(candidates.count) friends (\(candidates.joined(separator: ", "))); type more of the name or the id."
        case .graph(let error, let command):
            switch error.category {
            case .permission:
                if let permission = error.missingPermission {
                    "The app has not been granted \(permission.rawValue). Run `\(command) --ask` to ask for it in the browser."
                } else {
                    "\(error.userMessage) (\(error.message))"
                }
            case .recoverable:
                "\(error.userMessage) Run `kinship login --server URL --app-id ID`. (\(error.message))"
            case .transient, .throttled, .other:
                "\(error.userTitle): \(error.message)"
            }
        }
    }
}
