/// The token endpoint's answer (`POST /oauth/access_token`).
public struct TokenResponse: Codable, Sendable, Equatable {
    /// The access token: send it as `Authorization: Bearer …`.
    public var accessToken: String
    /// `bearer`.
    public var tokenType: String
    /// Seconds until the token expires.
    public var expiresIn: Int
    /// Every permission the person has granted this app.
    public var grantedScopes: [Permission]
    /// Every permission the person has declined for this app.
    public var declinedScopes: [Permission]
    /// The granted scope as OAuth 2.0 writes it (RFC 6749 §5.1: space-separated), with `openid`
    /// when the app asked for it.
    public var scope: String?
    /// OpenID Connect: the signed id_token, when the app asked for scope `openid`.
    public var idToken: String?
    /// A refresh token (RFC 6749 §6): for public apps, and for apps that asked for
    /// `offline_access`. Each use answers with a new one; the old one stops working.
    public var refreshToken: String?
    /// Seconds the refresh token stays usable if it is not used (each use starts a new period).
    public var refreshTokenExpiresIn: Int?

    /// A token answer from its fields; `refreshTokenExpiresIn` is dropped without a refresh token.
    public init(
        accessToken: String,
        tokenType: String = "bearer",
        expiresIn: Int,
        grantedScopes: [Permission],
        declinedScopes: [Permission],
        scope: String? = nil,
        idToken: String? = nil,
        refreshToken: String? = nil,
        refreshTokenExpiresIn: Int? = nil
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
        self.grantedScopes = grantedScopes
        self.declinedScopes = declinedScopes
        self.scope = scope
        self.idToken = idToken
        self.refreshToken = refreshToken
        self.refreshTokenExpiresIn = refreshToken == nil ? nil : refreshTokenExpiresIn
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case grantedScopes = "granted_scopes"
        case declinedScopes = "declined_scopes"
        case scope
        case idToken = "id_token"
        case refreshToken = "refresh_token"
        case refreshTokenExpiresIn = "refresh_token_expires_in"
    }
}

/// What `GET /debug_token` says about a token.
public struct TokenDebugInfo: Codable, Sendable, Equatable {
    /// Why a token is not valid.
    public struct Problem: Codable, Sendable, Equatable {
        /// The Graph error code (see ``GraphErrorCode``).
        public var code: Int
        /// The subcode, such as ``GraphErrorCode/subcodeExpired``.
        public var subcode: Int?
        /// A sentence for the developer.
        public var message: String

        /// A problem from its fields.
        public init(code: Int, subcode: Int?, message: String) {
            self.code = code
            self.subcode = subcode
            self.message = message
        }
    }

    /// The app the token was issued to.
    public var appID: String?
    /// `USER` for a person's token, `APP` for an app token.
    public var type: String?
    /// The app's display name.
    public var application: String?
    /// The person the token speaks for; `nil` for an app token.
    public var userID: String?
    /// The permissions the token carries now.
    public var scopes: [Permission]
    /// Whether the token can be used now.
    public var isValid: Bool
    /// Unix seconds.
    public var expiresAt: Int?
    /// Unix seconds.
    public var issuedAt: Int?
    /// Why the token is not valid, when it is not.
    public var error: Problem?

    /// Token facts from their fields.
    public init(
        appID: String?,
        type: String?,
        application: String?,
        userID: String?,
        scopes: [Permission],
        isValid: Bool,
        expiresAt: Int?,
        issuedAt: Int?,
        error: Problem?
    ) {
        self.appID = appID
        self.type = type
        self.application = application
        self.userID = userID
        self.scopes = scopes
        self.isValid = isValid
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.error = error
    }

    enum CodingKeys: String, CodingKey {
        case appID = "app_id"
        case type
        case application
        case userID = "user_id"
        case scopes
        case isValid = "is_valid"
        case expiresAt = "expires_at"
        case issuedAt = "issued_at"
        case error
    }
}
