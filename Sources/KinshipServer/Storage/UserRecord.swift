/// A person with an account on the platform, as stored.
public struct UserRecord: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var firstName: String?
    public var middleName: String?
    public var lastName: String?
    public var username: String?
    public var email: String
    var passwordHash: String
    public var gender: String?
    public var locale: String?
    /// `YYYY-MM-DD`.
    public var birthday: String?
    public var hometown: String?
    public var location: String?
    public var passwordChangedAt: Int
    public var createdAt: Int
    /// 1 when the person lets others find them by typing their exact email address, else 0.
    var findableByEmail: Int
    /// 1 for the platform's administrators, who see every app and person at `/admin`.
    var adminFlag: Int = 0
    /// When an administrator suspended the account; `nil` while it is not suspended.
    public var suspendedAt: Int? = nil

    /// Whether the person is one of the platform's administrators.
    public var isAdmin: Bool { adminFlag != 0 }

    /// Whether others may find the person by typing their exact email address (off unless they
    /// turn it on: an address someone knows must not reveal a name and an id by itself).
    public var isFindableByEmail: Bool { findableByEmail != 0 }

    /// Column names, so rows decode without converting every key's case on the hot path.
    enum CodingKeys: String, CodingKey {
        case id, name, username, email, gender, locale, birthday, hometown, location
        case firstName = "first_name"
        case middleName = "middle_name"
        case lastName = "last_name"
        case passwordHash = "password_hash"
        case passwordChangedAt = "password_changed_at"
        case createdAt = "created_at"
        case findableByEmail = "findable_by_email"
        case adminFlag = "is_admin"
        case suspendedAt = "suspended_at"
    }
}
