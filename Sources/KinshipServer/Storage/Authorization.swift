import KinshipCore

/// A person's login to one app: the permissions they granted and declined. Tokens hang off it, so
/// revoking it ends every token at once.
struct Authorization: Sendable, Equatable {
    enum Status: String, Sendable {
        case granted
        case declined
    }

    typealias Statuses = [Permission: Status]

    var id: String
    var userID: String
    var appID: String
    var createdAt: Int
    var revokedAt: Int?
    var permissions: Statuses

    func hasGranted(_ permission: Permission) -> Bool { permissions[permission] == .granted }

    var granted: [Permission] { permissions.filter { $0.value == .granted }.map(\.key).sorted() }
    var declined: [Permission] { permissions.filter { $0.value == .declined }.map(\.key).sorted() }
}

struct AuthorizationRow: Decodable {
    var id: String
    var userId: String
    var appId: String
    var createdAt: Int
    var revokedAt: Int?
}
