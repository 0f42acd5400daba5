import KinshipCore

/// The person's OpenID Connect standard claims (Core 1.0 §5.1), as far as the app may read them:
/// the profile with `public_profile`, the address with `email`.
struct StandardClaims: Codable, Sendable, Equatable {
    var name: String?
    var givenName: String?
    var middleName: String?
    var familyName: String?
    var preferredUsername: String?
    var picture: String?
    var locale: String?
    var email: String?
    /// Kinship does not confirm addresses yet: always `false` when `email` is present.
    var emailVerified: Bool?

    enum CodingKeys: String, CodingKey {
        case name, picture, locale, email
        case givenName = "given_name"
        case middleName = "middle_name"
        case familyName = "family_name"
        case preferredUsername = "preferred_username"
        case emailVerified = "email_verified"
    }

    /// The claims of `user` that `profile` and `email` allow; `baseURL` is the issuer's.
    init(user: UserRecord, profile: Bool, email: Bool, baseURL: String) {
        if profile {
            name = user.name
            givenName = user.firstName
            middleName = user.middleName
            familyName = user.lastName
            preferredUsername = user.username
            picture = PictureService.address(of: user.id, baseURL: baseURL)
            locale = user.locale
        }
        if email {
            self.email = user.email
            emailVerified = false
        }
    }
}
