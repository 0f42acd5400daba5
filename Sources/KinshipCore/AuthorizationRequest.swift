import Foundation

/// The login dialog request: what an app sends the person's browser to (`GET /dialog/oauth?…`).
///
/// ``LoginManager``-style clients build it with ``url(dialogEndpoint:)``; the server reads it back
/// with ``init(parameters:)``.
public struct AuthorizationRequest: Sendable, Equatable {
    /// Asks the dialog to show permissions the person declined earlier.
    public enum AuthType: String, Sendable {
        case rerequest
    }

    public var clientID: String
    public var redirectURI: String
    public var responseType: String
    public var scope: [Permission]
    public var state: String?
    public var codeChallenge: String?
    public var codeChallengeMethod: String?
    public var authType: AuthType?

    public init(
        clientID: String,
        redirectURI: String,
        scope: [Permission],
        state: String?,
        codeChallenge: String?,
        codeChallengeMethod: String? = "S256",
        authType: AuthType? = nil,
        responseType: String = "code"
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.scope = scope
        self.state = state
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallenge == nil ? nil : codeChallengeMethod
        self.authType = authType
    }

    /// Reads a request from the dialog's query parameters (or a form that carries them on).
    ///
    /// Throws only when the request cannot be answered by a redirect at all (no client or no
    /// redirect URI); everything else is checked by ``redirectableProblem``.
    public init(parameters: FormParameters) throws(AuthorizationRequestError) {
        guard let clientID = parameters["client_id"], !clientID.isEmpty else { throw .missingClientID }
        guard let redirectURI = parameters["redirect_uri"], !redirectURI.isEmpty else { throw .missingRedirectURI }
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = parameters["response_type"] ?? ""
        self.scope = Permission.list(fromScope: parameters["scope"] ?? "")
        self.state = parameters["state"]
        self.codeChallenge = parameters["code_challenge"].flatMap { $0.isEmpty ? nil : $0 }
        self.codeChallengeMethod = parameters["code_challenge_method"].flatMap { $0.isEmpty ? nil : $0 }
        self.authType = parameters["auth_type"].flatMap(AuthType.init(rawValue:))
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
                .unsupportedResponseType, description: "response_type must be \"code\"")
        }
        if let method = codeChallengeMethod, method != "S256" {
            return AuthorizationError(.invalidRequest, description: "code_challenge_method must be S256")
        }
        if codeChallengeMethod != nil, codeChallenge == nil {
            return AuthorizationError(.invalidRequest, description: "code_challenge is missing")
        }
        if let challenge = codeChallenge, !PKCE.isWellFormed(challenge) {
            return AuthorizationError(
                .invalidRequest, description: "code_challenge must be 43 base64url characters (S256)")
        }
        let unknown = scope.filter { !PermissionCatalogue.contains($0) }
        if !unknown.isEmpty {
            return AuthorizationError(
                .invalidScope,
                description: "Invalid scopes: \(Permission.scope(of: unknown))")
        }
        return nil
    }
}

/// Why a dialog request cannot be answered with a redirect.
public enum AuthorizationRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingClientID
    case missingRedirectURI

    public var description: String {
        switch self {
        case .missingClientID: "The request has no client_id."
        case .missingRedirectURI: "The request has no redirect_uri."
        }
    }
}
