import Foundation

/// A verified OpenID Connect id_token: proof, signed by the platform, of who logged in to this
/// app and when — what Facebook's SDK calls the authentication token of a limited login.
///
/// A login that asks for `Permission.openID` returns one in
/// ``LoginSuccess/authenticationToken`` after an ``AuthenticationTokenVerifier`` checked its
/// signature against the platform's published keys and its issuer, audience, expiry, nonce and
/// access-token hash. An app's server can check ``tokenString`` again the same way.
public struct AuthenticationToken: Sendable, Equatable {
    /// The id_token as the platform sent it (a JWS in compact form).
    public var tokenString: String
    /// The nonce the login sent, which the token carries back.
    public var nonce: String?
    /// What the token says.
    public var claims: AuthenticationTokenClaims
}

/// The claims of an ``AuthenticationToken``; the person's own claims only as far as the app asked
/// for them and was granted them (`profile`/`public_profile`, `email`).
public struct AuthenticationTokenClaims: Sendable, Equatable, Codable {
    /// The platform's issuer identifier (its base URL).
    public var issuer: String
    /// The person's Kinship user id (`sub`).
    public var userID: String
    /// The app the token was issued to (`aud`).
    public var appID: String
    /// When the id_token expires (`exp`).
    public var expirationDate: Date
    /// When it was issued (`iat`).
    public var issuedAt: Date
    /// When the person last typed their password (`auth_time`).
    public var authenticatedAt: Date?
    /// The value the app sent with the login (`nonce`), repeated so the app can match them.
    public var nonce: String?
    /// `at_hash`: binds the token to the access token issued with it.
    public var accessTokenHash: String?
    /// The full name; with `public_profile`.
    public var name: String?
    /// The given name; with `public_profile`.
    public var givenName: String?
    /// The family name; with `public_profile`.
    public var familyName: String?
    /// The address of the person's picture.
    public var picture: String?
    /// The email address; only when `email` was granted.
    public var email: String?
    /// Whether the platform checked the address; only with ``email``.
    public var emailVerified: Bool?

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case userID = "sub"
        case appID = "aud"
        case expirationDate = "exp"
        case issuedAt = "iat"
        case authenticatedAt = "auth_time"
        case nonce
        case accessTokenHash = "at_hash"
        case name
        case givenName = "given_name"
        case familyName = "family_name"
        case picture, email
        case emailVerified = "email_verified"
    }

    /// Reads the claims; `exp`, `iat` and `auth_time` are Unix seconds.
    ///
    /// - Throws: `DecodingError` when a required claim is missing or has the wrong type.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        userID = try container.decode(String.self, forKey: .userID)
        // `aud` may be one string or a list (Core 1.0 §2); Kinship sends one.
        if let single = try? container.decode(String.self, forKey: .appID) {
            appID = single
        } else {
            let list = try container.decode([String].self, forKey: .appID)
            guard list.count == 1 else {
                throw DecodingError.dataCorruptedError(forKey: .appID, in: container, debugDescription: "aud names several apps")
            }
            appID = list[0]
        }
        expirationDate = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .expirationDate))
        issuedAt = Date(timeIntervalSince1970: try container.decode(Double.self, forKey: .issuedAt))
        authenticatedAt = try container.decodeIfPresent(Double.self, forKey: .authenticatedAt).map(Date.init(timeIntervalSince1970:))
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        accessTokenHash = try container.decodeIfPresent(String.self, forKey: .accessTokenHash)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        givenName = try container.decodeIfPresent(String.self, forKey: .givenName)
        familyName = try container.decodeIfPresent(String.self, forKey: .familyName)
        picture = try container.decodeIfPresent(String.self, forKey: .picture)
        email = try container.decodeIfPresent(String.self, forKey: .email)
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
    }

    /// Writes the claims as the platform does.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(userID, forKey: .userID)
        try container.encode(appID, forKey: .appID)
        try container.encode(Int(expirationDate.timeIntervalSince1970), forKey: .expirationDate)
        try container.encode(Int(issuedAt.timeIntervalSince1970), forKey: .issuedAt)
        try container.encodeIfPresent(authenticatedAt.map { Int($0.timeIntervalSince1970) }, forKey: .authenticatedAt)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(accessTokenHash, forKey: .accessTokenHash)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(givenName, forKey: .givenName)
        try container.encodeIfPresent(familyName, forKey: .familyName)
        try container.encodeIfPresent(picture, forKey: .picture)
        try container.encodeIfPresent(email, forKey: .email)
        try container.encodeIfPresent(emailVerified, forKey: .emailVerified)
    }
}
