/// The token endpoint's answer (`POST /oauth/access_token`).
public struct TokenResponse: Codable, Sendable, Equatable {
    public var accessToken: String
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
        public var code: Int
        public var subcode: Int?
        public var message: String

        public init(code: Int, subcode: Int?, message: String) {
            self.code = code
            self.subcode = subcode
            self.message = message
        }
    }

    public var appID: String?
    public var type: String?
    public var application: String?
    public var userID: String?
    public var scopes: [Permission]
    public var isValid: Bool
    /// Unix seconds.
    public var expiresAt: Int?
    /// Unix seconds.
    public var issuedAt: Int?
    public var error: Problem?

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
