import KinshipCore
import KinshipKit

/// Something that went wrong, said the way the person can understand, with the way forward.
struct SampleProblem: Sendable, Equatable, Encodable {
    /// A link or button that fixes it.
    struct Action: Sendable, Equatable, Encodable {
        let label: String
        let href: String
    }

    let title: String
    let message: String
    let action: Action?

    static let logIn = Action(label: "Log in with Kinship", href: "/sample/login")

    static let notLoggedIn = SampleProblem(
        title: "You're not logged in",
        message: "Log in with Kinship to see your profile and pick friends.",
        action: logIn
    )

    /// What the dialog's refusal means (`error=access_denied` when the person pressed Cancel).
    static func loginRefused(_ error: String?, description: String?) -> SampleProblem {
        if error == OAuthErrorCode.accessDenied.rawValue {
            return SampleProblem(
                title: "Login cancelled",
                message: "You cancelled the login, so Kinship Sample did not get anything from your account.",
                action: Action(label: "Try again", href: "/sample/login")
            )
        }
        return SampleProblem(
            title: "Login did not finish",
            message: "Kinship answered: \(description ?? error ?? "no reason given"). Nothing was shared.",
            action: logIn
        )
    }

    /// The answer to a login that came back without matching this browser's own login.
    static let loginExpired = SampleProblem(
        title: "That login link is stale",
        message: "The login that came back was not started in this browser, or it was started long ago. Please log in again.",
        action: logIn
    )

    /// A form that did not come from this browser's page of the app.
    static let removedOnPlatform = SampleProblem(
        title: "Kinship Sample was removed",
        message: "You removed Kinship Sample from your Kinship account, so you are logged out of it here.",
        action: logIn
    )

    static let formExpired = SampleProblem(
        title: "That form expired",
        message: "Nothing was changed. The page was old or came from somewhere else; try again from here.",
        action: nil
    )

    /// What a failed Graph call means for the person.
    static func graph(_ error: GraphError) -> SampleProblem {
        switch error.category {
        case .recoverable:
            switch error.subcode {
            case 458:
                return SampleProblem(
                    title: "Kinship Sample was removed",
                    message: "Kinship Sample no longer has access to your Kinship account, so you were logged out of it.",
                    action: logIn
                )
            case 463:
                return SampleProblem(
                    title: "Your login expired",
                    message: "Logins to Kinship Sample last a few hours. Log in again to carry on.",
                    action: logIn
                )
            case 460:
                return SampleProblem(
                    title: "Your password changed",
                    message: "Because your Kinship password changed, please log in to Kinship Sample again.",
                    action: logIn
                )
            default:
                return SampleProblem(
                    title: "Please log in again",
                    message: "Your login to Kinship Sample is no longer valid.",
                    action: logIn
                )
            }
        case .permission:
            return permissionMissing(error.missingPermission ?? .userFriends)
        case .throttled:
            return SampleProblem(
                title: "Slow down a little",
                message: "Kinship Sample asked Kinship for too much at once. Wait a minute and try again.",
                action: nil
            )
        case .transient:
            return SampleProblem(
                title: "Kinship did not answer",
                message: "Kinship Sample could not reach Kinship just now. Try again in a moment.",
                action: nil
            )
        case .other:
            return SampleProblem(title: error.userTitle, message: error.userMessage, action: nil)
        }
    }

    /// Why something needing `permission` shows nothing, and the button that asks for it again.
    static func permissionMissing(_ permission: Permission) -> SampleProblem {
        let ask = Action(label: "Share it with Kinship Sample", href: "/sample/login?ask=\(permission.rawValue)")
        switch permission {
        case .userFriends:
            return SampleProblem(
                title: "Your friends list is not shared",
                message: "You have not let Kinship Sample see your friends list, so there is nobody to pick.",
                action: Action(label: "Share your friends list", href: ask.href)
            )
        case .email:
            return SampleProblem(
                title: "Email not shared",
                message: "You chose not to share your email with Kinship Sample.",
                action: Action(label: "Share your email", href: ask.href)
            )
        default:
            return SampleProblem(
                title: "Permission not shared",
                message: "Kinship Sample needs \(PermissionCatalogue.descriptor(for: permission)?.summary ?? permission.rawValue) for this.",
                action: ask
            )
        }
    }
}
