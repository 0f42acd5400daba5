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

    /// Column names, so rows decode without converting every key's case on the hot path.
    enum CodingKeys: String, CodingKey {
        case id, name, username, email, gender, locale, birthday, hometown, location
        case firstName = "first_name", middleName = "middle_name", lastName = "last_name", passwordHash = "password_hash"
        case passwordChangedAt = "password_changed_at", createdAt = "created_at"
    }
}
