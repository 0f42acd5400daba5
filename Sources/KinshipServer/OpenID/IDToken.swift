import Crypto
import Foundation
import JWTKit
import KinshipCore

/// The claims of an id_token (OpenID Connect Core 1.0 §2), the person's own claims among them as
/// far as the app asked for them and was granted them.
struct IDToken: JWTPayload, Equatable {
    var issuer: String
    var subject: String
    var audience: String
    var expiresAt: Int
    var issuedAt: Int
    var authTime: Int?
    var nonce: String?
    var accessTokenHash: String?
    var claims: StandardClaims

    enum CodingKeys: String, CodingKey {
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case expiresAt = "exp"
        case issuedAt = "iat"
        case authTime = "auth_time"
        case nonce
        case accessTokenHash = "at_hash"
    }

    init(
        issuer: String,
        subject: String,
        audience: String,
        expiresAt: Int,
        issuedAt: Int,
        authTime: Int?,
        nonce: String?,
        accessToken: String,
        claims: StandardClaims
    ) {
        self.issuer = issuer
        self.subject = subject
        self.audience = audience
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.authTime = authTime
        self.nonce = nonce
        self.accessTokenHash = Self.hash(ofAccessToken: accessToken)
        self.claims = claims
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        issuer = try container.decode(String.self, forKey: .issuer)
        subject = try container.decode(String.self, forKey: .subject)
        audience = try container.decode(String.self, forKey: .audience)
        expiresAt = try container.decode(Int.self, forKey: .expiresAt)
        issuedAt = try container.decode(Int.self, forKey: .issuedAt)
        authTime = try container.decodeIfPresent(Int.self, forKey: .authTime)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        accessTokenHash = try container.decodeIfPresent(String.self, forKey: .accessTokenHash)
        claims = try StandardClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(issuer, forKey: .issuer)
        try container.encode(subject, forKey: .subject)
        try container.encode(audience, forKey: .audience)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(issuedAt, forKey: .issuedAt)
        try container.encodeIfPresent(authTime, forKey: .authTime)
        try container.encodeIfPresent(nonce, forKey: .nonce)
        try container.encodeIfPresent(accessTokenHash, forKey: .accessTokenHash)
        try claims.encode(to: encoder)
    }

    /// What jwt-kit checks after the signature when it verifies an id_token: the expiry, by the
    /// system clock (the server only signs id_tokens; relying parties verify them).
    func verify(using algorithm: some JWTAlgorithm) async throws {
        try ExpirationClaim(value: Date(timeIntervalSince1970: TimeInterval(expiresAt))).verifyNotExpired()
    }

    /// `at_hash` (Core 1.0 §3.1.3.6): the left half of the token's SHA-256, base64url.
    static func hash(ofAccessToken token: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(token.utf8))).prefix(16))
    }
}
