import Foundation
import KinshipCore

/// An access token and what it allows: the permissions granted and declined, and when it expires.
public struct AccessToken: Codable, Sendable, Equatable {
    /// The token string sent as `Authorization: Bearer …`.
    public var tokenString: String
    public var appID: String
    public var userID: String
    public var permissions: Set<Permission>
    public var declinedPermissions: Set<Permission>
    /// Permissions that were granted once and have lapsed.
    public var expiredPermissions: Set<Permission>
    public var expirationDate: Date
    /// When the token was last issued or refreshed.
    public var refreshDate: Date
    /// When the app's access to the person's data lapses, if the platform says.
    public var dataAccessExpirationDate: Date?

    public init(
        tokenString: String, appID: String, userID: String, permissions: Set<Permission>,
        declinedPermissions: Set<Permission> = [], expiredPermissions: Set<Permission> = [], expirationDate: Date,
        refreshDate: Date = Date(), dataAccessExpirationDate: Date? = nil
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
    }

    /// Whether the person granted `permission` to the app with this token.
    public func hasGranted(_ permission: Permission) -> Bool {
        permissions.contains(permission)
    }

    /// Whether the token has expired.
    public var isExpired: Bool { isExpired(at: Date()) }

    /// Whether the token has expired at `date`.
    public func isExpired(at date: Date) -> Bool { expirationDate <= date }
}
