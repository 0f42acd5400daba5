import Foundation

/// The login dialog request: what an app sends the person's browser to (`GET /dialog/oauth?…`).
///
/// Clients such as KinshipKit's `LoginManager` build it with ``url(dialogEndpoint:)``; the server reads it back
/// with ``init(parameters:)``.
public struct AuthorizationRequest: Sendable, Equatable {
    /// Asks the dialog to show permissions the person declined earlier.
    public enum AuthType: String, Sendable {
        /// Show the permissions the person declined before again (a plain login leaves them out).
        case rerequest
    }

    /// What the dialog may show (OpenID Connect Core 1.0 §3.1.2.1).
    public enum Prompt: String, Sendable, CaseIterable {
        /// Show nothing: answer at once, or fail with `login_required` / `consent_required`.
        case none
        /// Ask for the password again, even when the browser is logged in.
        case login
        /// Show the consent page even when every permission is granted already.
        case consent
        /// Let the person choose an account (one browser holds one login: the same as `login`).
        case selectAccount = "select_account"
    }

    /// The longest `nonce` the dialog accepts: it is carried through the code into the id_token.
    public static let maxNonceLength = 512

    /// The app's id (`client_id`).
    public var clientID: String
    /// Where the dialog sends the answer; it must equal one the app registered, byte for byte.
    public var redirectURI: String
    /// `code`, the one response type the dialog answers.
    public var responseType: String
    /// Permissions and scopes as the app asked for them (``Permission/openID`` among them for an
    /// OpenID Connect login).
    public var scope: [Permission]
    /// A value the app makes up and checks in the answer, so it cannot be handed someone else's.
    public var state: String?
    /// PKCE (RFC 7636): base64url of the SHA-256 of the verifier the app keeps for the exchange.
    public var codeChallenge: String?
    /// `S256`, the one PKCE method accepted; `nil` when there is no challenge.
    public var codeChallengeMethod: String?
    /// ``AuthType/rerequest`` to ask again for declined permissions.
    public var authType: AuthType?
    /// OpenID Connect: a value the id_token must repeat, binding it to this login.
    public var nonce: String?
    /// OpenID Connect: `prompt`, as sent (space-separated ``Prompt`` values); see ``prompts``.
    public var prompt: String?
    /// OpenID Connect: the oldest password login, in seconds, the app accepts without a new one.
    public var maxAge: String?
    /// OpenID Connect: the login (email or username) to fill in on the login form.
    public var loginHint: String?

    /// A request from its parts, as a client sends it.
    ///
    /// - Parameters:
    ///   - clientID: The app's id.
    ///   - redirectURI: A redirect URI the app registered.
    ///   - scope: The permissions to ask for.
    ///   - state: The value the answer must carry back.
    ///   - codeChallenge: The PKCE challenge (see ``PKCE``).
    ///   - codeChallengeMethod: `S256`; dropped when there is no challenge.
    ///   - authType: ``AuthType/rerequest`` to show declined permissions again.
    ///   - responseType: `code`.
    ///   - nonce: OpenID Connect: a value the id_token must repeat.
    ///   - prompt: OpenID Connect: what the dialog may show.
    ///   - maxAge: OpenID Connect: the oldest password login, in seconds, to accept.
    ///   - loginHint: OpenID Connect: the login to fill in.
    public init(
        clientID: String,
        redirectURI: String,
        scope: [Permission],
        state: String?,
        codeChallenge: String?,
        codeChallengeMethod: String? = "S256",
        authType: AuthType? = nil,
        responseType: String = "code",
        nonce: String? = nil,
        prompt: [Prompt] = [],
        maxAge: Int? = nil,
        loginHint: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.scope = scope
        self.state = state
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallenge == nil ? nil : codeChallengeMethod
        self.authType = authType
        self.nonce = nonce
        self.prompt = prompt.isEmpty ? nil : prompt.map(\.rawValue).joined(separator: " ")
        self.maxAge = maxAge.map(String.init)
        self.loginHint = loginHint
    }

    /// Whether the app asked for an id_token (scope `openid`).
    public var isOpenID: Bool { scope.contains(.openID) }

    /// The ``prompt`` values; `nil` when one of them is not a ``Prompt``.
    public var prompts: Set<Prompt>? {
        var prompts = Set<Prompt>()
        for name in (prompt ?? "").split(separator: " ") {
            guard let value = Prompt(rawValue: String(name)) else { return nil }
            prompts.insert(value)
        }
        return prompts
    }

    /// The same request without the given `prompt` values (the dialog drops `login` once the
    /// password has been typed).
    public func withoutPrompts(_ removed: Set<Prompt>) -> AuthorizationRequest {
        var copy = self
        let kept = (prompt ?? "").split(separator: " ").filter { name in
            Prompt(rawValue: String(name)).map { !removed.contains($0) } ?? true
        }
        copy.prompt = kept.isEmpty ? nil : kept.joined(separator: " ")
        return copy
    }

    /// ``maxAge`` as seconds, when it is a whole number of them.
    public var maxAgeSeconds: Int? { maxAge.flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }

    /// Reads a request from the dialog's query parameters (or a form that carries them on).
    ///
    /// Throws only when the request cannot be answered by a redirect at all (no client or no
    /// redirect URI); everything else is checked by ``redirectableProblem``.
    public init(parameters: FormParameters) throws(AuthorizationRequestError) {
        guard let clientID = parameters["client_id"], !clientID.isEmpty else { throw .missingClientID }
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else { throw .missingRedirectURI }
        self.clientID = clientID
        self.redirectURI = redirectURI
        // Facebook's dialog takes a missing response_type as `code`, and its client libraries omit it.
        self.responseType = parameters["response_type"] ?? "code"
        self.scope = Permission.list(fromScope: parameters["scope"] ?? "")
        self.state = parameters["state"]
        self.codeChallenge = parameters["code_challenge"].flatMap { $0.isEmpty ? nil : $0 }
        self.codeChallengeMethod = parameters["code_challenge_method"].flatMap { $0.isEmpty ? nil : $0 }
        self.authType = parameters["auth_type"].flatMap(AuthType.init(rawValue:))
        self.nonce = parameters["nonce"].flatMap { $0.isEmpty ? nil : $0 }
        self.prompt = parameters["prompt"].flatMap { $0.isEmpty ? nil : $0 }
        self.maxAge = parameters["max_age"].flatMap { $0.isEmpty ? nil : $0 }
        self.loginHint = parameters["login_hint"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The request as query parameters, in a stable order.
    public var parameters: FormParameters {
        var parameters = FormParameters()
        parameters.append("client_id", clientID)
        parameters.append("redirect_uri", redirectURI)
        parameters.append("response_type", responseType)
        parameters.append("scope", Permission.scope(of: scope))
        parameters.append("state", state)
        parameters.append("code_challenge", codeChallenge)
        parameters.append("code_challenge_method", codeChallengeMethod)
        parameters.append("auth_type", authType?.rawValue)
        parameters.append("nonce", nonce)
        parameters.append("prompt", prompt)
        parameters.append("max_age", maxAge)
        parameters.append("login_hint", loginHint)
        return parameters
    }

    /// The dialog URL to open in a browser.
    public func url(dialogEndpoint: URL) -> URL {
        let separator = dialogEndpoint.query == nil ? "?" : "&"
        return URL(string: dialogEndpoint.absoluteString + separator + parameters.formEncoded)!
    }

    /// A problem the dialog reports back to the app through the redirect URI (RFC 6749 §4.1.2.1),
    /// or `nil` when the request is well-formed. Whether the client and redirect URI are known is
    /// the server's business and is checked before this.
    public var redirectableProblem: AuthorizationError? {
        if responseType != "code" {
            return AuthorizationError(
                .unsupportedResponseType,
                description: "response_type must be \"code\""
            )
        }
        if let method = codeChallengeMethod, method != "S256" {
            return AuthorizationError(.invalidRequest, description: "code_challenge_method must be S256")
        }
        if codeChallengeMethod != nil, codeChallenge == nil {
            return AuthorizationError(.invalidRequest, description: "code_challenge is missing")
        }
        if let challenge = codeChallenge, !PKCE.isWellFormed(challenge) {
            return AuthorizationError(
                .invalidRequest,
                description: "code_challenge must be 43 base64url characters (S256)"
            )
        }
        if let nonce, nonce.utf8.count > Self.maxNonceLength {
            return AuthorizationError(.invalidRequest, description: "nonce is longer than \(Self.maxNonceLength) bytes")
        }
        guard let prompts else {
            return AuthorizationError(
                .invalidRequest,
                description: "prompt must be none, login, consent or select_account (space-separated)"
            )
        }
        if prompts.contains(.none), prompts.count > 1 {
            return AuthorizationError(.invalidRequest, description: "prompt=none cannot be combined with other values")
        }
        if maxAge != nil, maxAgeSeconds == nil {
            return AuthorizationError(.invalidRequest, description: "max_age must be a whole number of seconds")
        }
        if isOpenID, codeChallenge == nil, nonce == nil {
            return AuthorizationError(
                .invalidRequest,
                description: "nonce is required for an OpenID Connect login without PKCE"
            )
        }
        let unknown = PermissionCatalogue.unknown(in: scope)
        if !unknown.isEmpty {
            return AuthorizationError(
                .invalidScope,
                description: "Invalid scopes: \(Permission.scope(of: unknown))"
            )
        }
        return nil
    }
}

/// Why a dialog request cannot be answered with a redirect.
public enum AuthorizationRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request has no `client_id`.
    case missingClientID
    /// The request has no `redirect_uri`.
    case missingRedirectURI

    /// A sentence for a person reading the error page.
    public var description: String {
        switch self {
        case .missingClientID: "The request has no client_id."
        case .missingRedirectURI: "The request has no redirect_uri."
        }
    }
}
