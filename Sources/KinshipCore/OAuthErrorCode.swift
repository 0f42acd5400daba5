/// The error codes of OAuth 2.0 (RFC 6749 §4.1.2.1 and §5.2, RFC 7009 §2.2.1) and OpenID Connect
/// (Core 1.0 §3.1.2.6).
public struct OAuthErrorCode: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral {
    /// The code on the wire, such as `invalid_grant`.
    public let rawValue: String
    /// The code with this wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The code written as a literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Reads the code from a JSON string.
    ///
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the code as a JSON string.
    ///
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The request is missing a parameter, repeats one, or is otherwise malformed.
    public static let invalidRequest: OAuthErrorCode = "invalid_request"
    /// The app could not be authenticated: unknown id or wrong secret.
    public static let invalidClient: OAuthErrorCode = "invalid_client"
    /// The code, refresh token or device code is invalid, expired, used or issued to another app.
    public static let invalidGrant: OAuthErrorCode = "invalid_grant"
    /// This app may not use this grant type.
    public static let unauthorizedClient: OAuthErrorCode = "unauthorized_client"
    /// The token endpoint does not know this grant type.
    public static let unsupportedGrantType: OAuthErrorCode = "unsupported_grant_type"
    /// The dialog answers only `response_type=code`.
    public static let unsupportedResponseType: OAuthErrorCode = "unsupported_response_type"
    /// Revocation (RFC 7009): the server cannot revoke this kind of token.
    public static let unsupportedTokenType: OAuthErrorCode = "unsupported_token_type"
    /// A requested permission or scope is unknown.
    public static let invalidScope: OAuthErrorCode = "invalid_scope"
    /// The person (or the platform) refused the request; Cancel in the dialog gives this.
    public static let accessDenied: OAuthErrorCode = "access_denied"
    /// The server failed; the request may work later.
    public static let serverError: OAuthErrorCode = "server_error"
    /// The server is overloaded or its database cannot be reached; try again later.
    public static let temporarilyUnavailable: OAuthErrorCode = "temporarily_unavailable"
    /// `prompt=none`, and nobody is logged in (or the login is older than `max_age`).
    public static let loginRequired: OAuthErrorCode = "login_required"
    /// `prompt=none`, and the person would have to be asked for a permission.
    public static let consentRequired: OAuthErrorCode = "consent_required"
    /// Device login (RFC 8628 §3.5): the person has not answered yet; poll again.
    public static let authorizationPending: OAuthErrorCode = "authorization_pending"
    /// Device login: polling too fast; wait 5 seconds longer from now on.
    public static let slowDown: OAuthErrorCode = "slow_down"
    /// Device login: the device code expired before the person answered; start again.
    public static let expiredToken: OAuthErrorCode = "expired_token"
}

/// Grant types of the token endpoint beyond RFC 6749's own names.
public enum GrantType {
    /// A device polling for the answer to a device login (RFC 8628 §3.4).
    public static let deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
}

/// The JSON body of an error from the token or revocation endpoint (RFC 6749 §5.2).
public struct OAuthErrorBody: Codable, Sendable, Equatable, Error {
    /// The error code.
    public var error: OAuthErrorCode
    /// A sentence for the developer (`error_description`).
    public var errorDescription: String?

    /// An error body with its code and description.
    public init(_ error: OAuthErrorCode, _ description: String? = nil) {
        self.error = error
        self.errorDescription = description
    }

    enum CodingKeys: String, CodingKey {
        case error
        case errorDescription = "error_description"
    }
}
