import Foundation

/// An error the login dialog reports back to the app through its redirect URI.
public struct AuthorizationError: Error, Sendable, Equatable {
    /// The OAuth error code (`access_denied`, `invalid_scope`, …).
    public var code: OAuthErrorCode
    /// Facebook-style detail, e.g. `user_denied` when the person pressed Cancel.
    public var reason: String?
    /// A sentence for the developer (`error_description`).
    public var description: String?

    /// An error with its code, Facebook-style reason and description.
    public init(_ code: OAuthErrorCode, reason: String? = nil, description: String? = nil) {
        self.code = code
        self.reason = reason
        self.description = description
    }

    /// The person cancelled the dialog.
    public static let userDenied = AuthorizationError(
        .accessDenied,
        reason: "user_denied",
        description: "The person cancelled the login."
    )
}

/// What the dialog sends back: `redirect_uri?code=…&state=…`, or `redirect_uri?error=…&state=…`.
public enum AuthorizationResponse: Sendable, Equatable {
    /// The person agreed: the code to exchange for a token, and the state sent.
    case code(String, state: String?)
    /// The dialog ended with an error (Cancel gives ``AuthorizationError/userDenied``).
    case error(AuthorizationError, state: String?)

    /// The state the app sent, echoed back.
    public var state: String? {
        switch self {
        case .code(_, let state), .error(_, let state): state
        }
    }

    /// The response as query parameters.
    public var parameters: FormParameters {
        var parameters = FormParameters()
        switch self {
        case .code(let code, let state):
            parameters.append("code", code)
            parameters.append("state", state)
        case .error(let error, let state):
            parameters.append("error", error.code.rawValue)
            parameters.append("error_reason", error.reason)
            parameters.append("error_description", error.description)
            parameters.append("state", state)
        }
        return parameters
    }

    /// The redirect URI with the response added to its query, and the `iss` parameter naming the
    /// server that answers (RFC 9207), so an app that uses several servers cannot be made to send
    /// one server's code to another.
    public func redirectURL(to redirectURI: String, issuer: String? = nil) -> String {
        var base = redirectURI
        var fragment = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = String(base[hash...])
            base = String(base[..<hash])
        }
        let separator = base.contains("?") ? (base.hasSuffix("?") || base.hasSuffix("&") ? "" : "&") : "?"
        var parameters = self.parameters
        parameters.append("iss", issuer)
        return base + separator + parameters.formEncoded + fragment
    }

    /// The `iss` parameter of a redirect URL the browser handed back (RFC 9207), if it has one.
    public static func issuer(in redirectURL: URL) -> String? {
        guard let query = redirectURL.query(percentEncoded: true) else { return nil }
        return FormParameters(formEncoded: query)["iss"]
    }

    /// Reads a redirect URL the browser handed back. Parameters are read from the query, or from
    /// the fragment as the old implicit flow sent them.
    ///
    /// - Throws: ``AuthorizationResponseError/noCodeOrError`` when the URL carries neither a code nor an error.
    public init(redirectURL: URL) throws(AuthorizationResponseError) {
        let string = redirectURL.absoluteString
        var parameters = FormParameters()
        if let question = string.firstIndex(of: "?") {
            let query = string[string.index(after: question)...].prefix { $0 != "#" }
            parameters = FormParameters(formEncoded: query)
        }
        if parameters["code"] == nil, parameters["error"] == nil, let hash = string.firstIndex(of: "#") {
            parameters = FormParameters(formEncoded: string[string.index(after: hash)...])
        }
        let state = parameters["state"]
        if let code = parameters["code"], !code.isEmpty {
            self = .code(code, state: state)
        } else if let error = parameters["error"], !error.isEmpty {
            self = .error(
                AuthorizationError(
                    OAuthErrorCode(rawValue: error),
                    reason: parameters["error_reason"],
                    description: parameters["error_description"]
                ),
                state: state
            )
        } else {
            throw .noCodeOrError
        }
    }
}

/// Why a redirect URL could not be read as a dialog response.
public enum AuthorizationResponseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL has neither `code` nor `error` in its query or fragment.
    case noCodeOrError

    /// A sentence for a developer.
    public var description: String {
        "The redirect URL carries neither a code nor an error."
    }
}
