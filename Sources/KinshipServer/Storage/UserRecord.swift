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
}
