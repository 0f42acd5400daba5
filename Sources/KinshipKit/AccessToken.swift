import Foundation
import KinshipCore

/// An access token and what it allows: the permissions granted and declined, and when it expires;
/// with the refresh token that renews it, when the platform gave one.
public struct AccessToken: Codable, Sendable, Equatable {
    /// The token string sent as `Authorization: Bearer …`.
    public var tokenString: String
    /// The app the token was issued to.
    public var appID: String
    /// The person the token speaks for.
    public var userID: String
    /// The permissions granted to the app.
    public var permissions: Set<Permission>
    /// The permissions the person declined (unticked in the dialog, or revoked later).
    public var declinedPermissions: Set<Permission>
    /// Permissions that were granted once and have lapsed.
    public var expiredPermissions: Set<Permission>
    /// When the access token stops working; a refresh token, if there is one, renews it.
    public var expirationDate: Date
    /// When the token was last issued or refreshed.
    public var refreshDate: Date
    /// When the app's access to the person's data lapses, if the platform says.
    public var dataAccessExpirationDate: Date?
    /// The refresh token that trades this token for a new pair (RFC 6749 §6). Public apps always
    /// get one; it is rotated on every refresh, so only the newest one works.
    public var refreshToken: String?
    /// When the refresh token lapses if it is not used, if the platform says.
    public var refreshTokenExpirationDate: Date?

    /// A token from its parts, as the login or a token cache makes it.
    public init(
        tokenString: String,
        appID: String,
        userID: String,
        permissions: Set<Permission>,
        declinedPermissions: Set<Permission> = [],
        expiredPermissions: Set<Permission> = [],
        expirationDate: Date,
        refreshDate: Date = Date(),
        dataAccessExpirationDate: Date? = nil,
        refreshToken: String? = nil,
        refreshTokenExpirationDate: Date? = nil
    ) {
        self.tokenString = tokenString
        self.appID = appID
        self.userID = userID
        self.permissions = permissions
        self.declinedPermissions = declinedPermissions
        self.expiredPermissions = expiredPermissions
        self.expirationDate = expirationDate
        self.refreshDate = refreshDate
        self.dataAccessExpirationDate = dataAccessExpirationDate
        self.refreshToken = refreshToken
        self.refreshTokenExpirationDate = refreshTokenExpirationDate
    }

    /// Whether the person granted `permission` to the app with this token.
    public func hasGranted(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }

    /// Whether the token has expired.
    public var isExpired: Bool { isExpired(at: Date()) }

    /// Whether the token has expired at `date`.
    public func isExpired(at date: Date) -> Bool { expirationDate <= date }

    /// Whether a refresh token that has not lapsed at `date` can renew this token.
    public func isRefreshable(at date: Date) -> Bool {
        refreshToken != nil && (refreshTokenExpirationDate.map { $0 > date } ?? true)
    }

    /// Whether a session can start logged in with this token at `date`: it is still valid, or it
    /// can be refreshed.
    public func isUsable(at date: Date) -> Bool { !isExpired(at: date) || isRefreshable(at: date) }

    /// The last moment the token is worth keeping: its refresh token's lapse when it has one.
    public var keepUntil: Date {
        guard refreshToken != nil else { return expirationDate }
        return max(expirationDate, refreshTokenExpirationDate ?? .distantFuture)
    }
}
