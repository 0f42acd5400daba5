import HTTPTypes
import Hummingbird
import KinshipCore

/// Checks a login dialog request in the order RFC 6749 §4.1.2.1 demands: an unknown client or a
/// redirect URI that does not match gets an error page and never a redirect; once the redirect
/// URI is trusted, every other problem is reported to the app through it.
struct DialogRequestValidator: Sendable {
    /// A request that may be shown to the person.
    struct Accepted: Sendable {
        let request: AuthorizationRequest
        let app: AppRecord
    }

    /// What to answer instead of the dialog.
    enum Rejection: Error {
        case page(Response)
        case redirect(Response)

        var response: Response {
            switch self {
            case .page(let response), .redirect(let response): response
            }
        }
    }

    /// The parameters a dialog request is made of; none may be sent twice (RFC 6749 §3.1).
    static let parameterNames = [
        "client_id", "redirect_uri", "response_type", "scope", "state", "code_challenge", "code_challenge_method", "auth_type",
        "nonce", "prompt", "max_age", "login_hint", "response_mode",
    ]

    let apps: AppStore
    let pages: PageRenderer
    let issuer: Issuer

    func validate(_ parameters: FormParameters) async throws -> Result<Accepted, Rejection> {
        let repeated = Self.parameterNames.filter { parameters.all($0).count > 1 }
        if let untrusted = repeated.first(where: { $0 == "client_id" || $0 == "redirect_uri" }) {
            return .failure(
                .page(
                    pages.error(
                        status: .badRequest,
                        heading: "This login link is not valid",
                        message: "The request gives \(untrusted) more than once, so Kinship cannot tell where to send you back.",
                        detail: "Go back to the app and try logging in again; if it keeps happening, tell the app's developer."
                    )
                )
            )
        }
        let request: AuthorizationRequest
        do {
            request = try AuthorizationRequest(parameters: parameters)
        } catch {
            return .failure(
                .page(
                    pages.error(
                        status: .badRequest,
                        heading: "This login link is incomplete",
                        message: error.description,
                        detail: "Go back to the app and try logging in again; if it keeps happening, tell the app's developer."
                    )
                )
            )
        }
        guard let app = try await apps.find(id: request.clientID) else {
            return .failure(
                .page(
                    pages.error(
                        status: .badRequest,
                        heading: "Unknown app",
                        message: "No app with the id \(request.clientID) is registered on this platform.",
                        detail: "Tell the app's developer to check its app id."
                    )
                )
            )
        }
        guard RedirectURIPolicy.allows(request.redirectURI, for: app) else {
            return .failure(
                .page(
                    pages.error(
                        status: .badRequest,
                        heading: "This login link is not allowed",
                        message: "The redirect URI \(request.redirectURI) is not registered for \(app.name).",
                        detail: "For your safety, Kinship only sends people back to addresses the app registered. Tell the app's developer."
                    )
                )
            )
        }
        if let name = repeated.first {
            let problem = AuthorizationError(.invalidRequest, description: "\(name) is given more than once")
            return .failure(.redirect(redirect(request, .error(problem, state: nil))))
        }
        if let mode = parameters["response_mode"], mode != "query" {
            let problem = AuthorizationError(.invalidRequest, description: "response_mode must be query")
            return .failure(.redirect(redirect(request, .error(problem, state: request.state))))
        }
        if let problem = request.redirectableProblem {
            return .failure(.redirect(redirect(request, .error(problem, state: request.state))))
        }
        if !app.isConfidential, request.codeChallenge == nil {
            let problem = AuthorizationError(.invalidRequest, description: "code_challenge is required (PKCE with S256) for public apps")
            return .failure(.redirect(redirect(request, .error(problem, state: request.state))))
        }
        if let withheld = app.withheldPermission(in: request.scope) {
            let problem = AuthorizationError(
                .invalidScope,
                description: "\(withheld.rawValue) is not enabled for this app; its developer can turn it on at /developers"
            )
            return .failure(.redirect(redirect(request, .error(problem, state: request.state))))
        }
        return .success(Accepted(request: request, app: app))
    }

    /// A 303 to the app's redirect URI carrying `response` and this server's issuer (RFC 9207).
    func redirect(_ request: AuthorizationRequest, _ response: AuthorizationResponse) -> Response {
        Response(status: .seeOther, headers: [.location: response.redirectURL(to: request.redirectURI, issuer: issuer.url)])
    }
}
