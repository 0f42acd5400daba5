/// A permission an app asks a person for, named as on the wire (`public_profile`, `email`, …).
///
/// Permissions are open strings so that a newer server's permission survives an older client,
/// but only the ones in ``PermissionCatalogue`` can be requested from the platform.
public struct Permission: RawRepresentable, Hashable, Comparable, Codable, Sendable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The name on the wire, such as `user_friends`.
    public let rawValue: String

    /// The permission with this wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The permission with this wire name.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    /// The permission written as a literal: `let permission: Permission = "email"`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Reads the wire name from a JSON string.
    ///
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the wire name as a JSON string.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }

    /// The wire name.
    public var description: String { self.rawValue }

    /// Orders permissions by wire name.
    public static func < (lhs: Permission, rhs: Permission) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Name, profile picture, link, locale, age range: granted with every login.
    public static let publicProfile: Permission = "public_profile"
    /// The person's primary email address.
    public static let email: Permission = "email"
    /// The person's friends who also use the app and granted it `user_friends`.
    public static let userFriends: Permission = "user_friends"
    /// The person's birthday.
    public static let userBirthday: Permission = "user_birthday"
    /// The person's hometown.
    public static let userHometown: Permission = "user_hometown"
    /// The person's current city.
    public static let userLocation: Permission = "user_location"
    /// The posts on the person's timeline.
    public static let userPosts: Permission = "user_posts"
    /// Posting to the person's timeline on their behalf.
    public static let publishActions: Permission = "publish_actions"
    /// Logging in to Kinship Chat (XMPP) as the person with the app's token, as Facebook Chat's
    /// `xmpp_login` did: the chat server accepts the token as the password.
    public static let xmppLogin: Permission = "xmpp_login"

    /// OpenID Connect: the app wants an id_token. A scope of the protocol, not something the person
    /// grants; see ``isProtocolScope``.
    public static let openID: Permission = "openid"
    /// The app wants a refresh token, to stay logged in without the dialog (OpenID Connect Core 1.0
    /// §11). A scope of the protocol, not something the person grants.
    public static let offlineAccess: Permission = "offline_access"

    /// Whether this scope says how the app logs in (``openID``, ``offlineAccess``) rather than what
    /// it may read: such scopes are never shown in the dialog, granted or declined.
    public var isProtocolScope: Bool { self == .openID || self == .offlineAccess }

    /// Parses a scope as apps send it: names separated by commas and/or white space.
    ///
    /// Order is kept, duplicates and empty names are dropped: `"email, user_friends email"`
    /// gives `[email, user_friends]`. OpenID Connect's `profile` is read as ``publicProfile``.
    public static func list(fromScope scope: String) -> [Permission] {
        var scope = scope
        // Scopes are ASCII in practice: split their bytes (a tenth of the cost of splitting
        // Characters, and scopes are read on every token request). Anything else splits by Character,
        // where Unicode's white space separates names too.
        let names =
            scope.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } ? asciiNames(bytes) : nil }
            ?? scope.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        let permissions = names.map { $0 == "profile" ? Permission.publicProfile : Permission($0) }
        // A handful of names, as apps send: looking back along the list costs less than hashing.
        guard permissions.count > 8 else {
            return permissions.indices.filter { !permissions[..<$0].contains(permissions[$0]) }.map { permissions[$0] }
        }
        var seen = Set<Permission>()
        return permissions.filter { seen.insert($0).inserted }
    }

    /// The names in an ASCII scope, split at commas and ASCII white space, empty ones dropped.
    private static func asciiNames(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        bytes.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || (0x09...0x0D).contains($0) })
            .map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes permissions as a scope string (comma-separated, as the dialog accepts).
    public static func scope<S: Sequence>(of permissions: S) -> String where S.Element == Permission {
        permissions.map(\.rawValue).joined(separator: ",")
    }
}
