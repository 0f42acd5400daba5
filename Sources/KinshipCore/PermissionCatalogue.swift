/// Whether a permission lets an app read data or act for the person.
///
/// Read and publish permissions are asked for in separate logins: an app first logs a person in
/// with read permissions and asks to publish only when the person is about to post.
public enum PermissionKind: String, Sendable, Codable {
    /// Lets the app read the person's data.
    case read
    /// Lets the app act for the person (post on their behalf).
    case publish
}

/// What the login dialog says about one permission.
public struct PermissionDescriptor: Sendable, Hashable {
    /// The permission's wire name.
    public let permission: Permission
    /// Read or publish.
    public let kind: PermissionKind
    /// A short phrase for the consent page, completing "The app will receive …".
    public let summary: String
    /// `true` for `public_profile`: part of every login, never a checkbox.
    public let isAlwaysGranted: Bool

    /// What the dialog says about `permission`.
    public init(_ permission: Permission, kind: PermissionKind, summary: String, isAlwaysGranted: Bool = false) {
        self.permission = permission
        self.kind = kind
        self.summary = summary
        self.isAlwaysGranted = isAlwaysGranted
    }
}

/// The permissions the platform knows, in the order the consent page lists them.
public enum PermissionCatalogue {
    /// Every permission an app may request.
    public static let all: [PermissionDescriptor] = [
        .init(.publicProfile, kind: .read, summary: "your name and profile picture", isAlwaysGranted: true),
        .init(.email, kind: .read, summary: "your email address"),
        .init(.userFriends, kind: .read, summary: "your friend list (friends who also use this app)"),
        .init(.userBirthday, kind: .read, summary: "your birthday"),
        .init(.userHometown, kind: .read, summary: "your hometown"),
        .init(.userLocation, kind: .read, summary: "your current city"),
        .init(.userPosts, kind: .read, summary: "the posts on your timeline"),
        .init(.xmppLogin, kind: .read, summary: "chatting with your friends as you (Kinship Chat)"),
        .init(.publishActions, kind: .publish, summary: "permission to post on your behalf"),
    ]

    private static let byName: [Permission: PermissionDescriptor] = Dictionary(
        uniqueKeysWithValues: all.map { ($0.permission, $0) }
    )

    /// What a permission lets an app see, as a line on its own ("Your email address"); the
    /// permission's name when the catalogue does not know it.
    public static func title(of permission: Permission) -> String {
        let summary = descriptor(for: permission)?.summary ?? permission.rawValue
        return summary.prefix(1).uppercased() + summary.dropFirst()
    }

    /// The descriptor of a known permission, or `nil` for an unknown name.
    public static func descriptor(for permission: Permission) -> PermissionDescriptor? {
        byName[permission]
    }

    /// The scopes in `scope` that are neither in the catalogue nor protocol scopes (`openid`,
    /// `offline_access`): what a request is refused with `invalid_scope` for.
    public static func unknown(in scope: [Permission]) -> [Permission] {
        scope.filter { !contains($0) && !$0.isProtocolScope }
    }

    /// What a login asks for: `scope`, after `public_profile`, which every login includes.
    public static func loginScope(_ scope: [Permission]) -> [Permission] {
        scope.contains(.publicProfile) ? scope : [.publicProfile] + scope
    }

    /// Whether the platform knows this permission.
    public static func contains(_ permission: Permission) -> Bool {
        byName[permission] != nil
    }

    /// Whether a person can take this permission back from an app on its own: a known permission
    /// that is not part of every login (`public_profile` goes only with the whole app).
    public static func isRevocableAlone(_ permission: Permission) -> Bool {
        byName[permission].map { !$0.isAlwaysGranted } ?? false
    }
}
