import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// Identifies the app calling the token or revocation endpoint: `client_id` (and `client_secret`)
/// in the form, or HTTP Basic (RFC 6749 §2.3.1). A secret that is sent is always checked.
struct ClientAuthenticator: Sendable {
    /// The calling app, and whether it proved itself with its secret.
    struct Client: Sendable {
        let app: AppRecord
        let presentedSecret: Bool
    }

    let apps: AppStore

    func authenticate(_ form: FormParameters, headers: HTTPFields) async throws -> Result<Client, OAuthFailure> {
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        var usedBasic = false
        if let authorization = headers[.authorization], authorization.lowercased().hasPrefix("basic ") {
            guard let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                let pair = String(data: decoded, encoding: .utf8), let colon = pair.firstIndex(of: ":")
            else {
                return .failure(OAuthFailure(.invalidClient, "The Basic authorization header is malformed.", basic: true))
            }
            let basicID = String(pair[..<colon]).removingPercentEncoding ?? ""
            if let formID = clientID, formID != basicID {
                return .failure(OAuthFailure(.invalidRequest, "client_id differs between the form and the Authorization header."))
            }
            if secret != nil {
                return .failure(OAuthFailure(.invalidRequest, "Send the client secret once: in the Authorization header or in the form."))
            }
            clientID = basicID
            secret = String(pair[pair.index(after: colon)...]).removingPercentEncoding
            usedBasic = true
        }
        guard let clientID, !clientID.isEmpty else {
            return .failure(OAuthFailure(.invalidRequest, "client_id is missing."))
        }
        guard let app = try await apps.find(id: clientID) else {
            return .failure(OAuthFailure(.invalidClient, "No app has the client_id \(clientID).", basic: usedBasic))
        }
        if let secret {
            guard app.verifySecret(secret, at: apps.clock.now) else {
                return .failure(OAuthFailure(.invalidClient, "The client secret is wrong.", basic: usedBasic))
            }
        }
        return .success(Client(app: app, presentedSecret: secret != nil))
    }
}

/// An OAuth error answer from the token or revocation endpoint (RFC 6749 §5.2), thrown from
/// anywhere in the endpoint and sent by Hummingbird as an ``HTTPResponseError``.
struct OAuthFailure: HTTPResponseError {
    let body: OAuthErrorBody
    /// `invalid_client` after HTTP Basic is a 401 with a challenge.
    let basic: Bool

    init(_ code: OAuthErrorCode, _ description: String, basic: Bool = false) {
        self.body = OAuthErrorBody(code, description)
        self.basic = basic
    }

    var status: HTTPResponse.Status { body.error == .invalidClient ? .unauthorized : .badRequest }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        // A device polling while the person reads the consent page is not news.
        let level: Logger.Level = body.error == .authorizationPending || body.error == .slowDown ? .debug : .info
        context.logger.log(
            level: level,
            "OAuth request refused",
            metadata: [
                "oauth.error": "\(body.error.rawValue)", "oauth.error_description": "\(body.errorDescription ?? "")",
            ]
        )
        var headers: HTTPFields = [.cacheControl: "no-store", .pragma: "no-cache"]
        if body.error == .invalidClient, basic { headers[.wwwAuthenticate] = #"Basic realm="kinship""# }
        return JSONResponse.make(body, status: status, headers: headers)
    }
}

extension FormReader {
    /// Reads the form of a token or revocation request; a body that is not a form, or too large,
    /// is an `invalid_request`.
    static func readOAuthForm(_ request: Request, limit: Int) async throws(OAuthFailure) -> FormParameters {
        do throws(FormReader.Failure) {
            return try await read(request, limit: limit)
        } catch {
            switch error {
            case .notAForm:
                throw OAuthFailure(.invalidRequest, "Send the parameters as application/x-www-form-urlencoded.")
            case .tooLarge(let limit):
                throw OAuthFailure(.invalidRequest, "The request body is larger than \(limit) bytes.")
            }
        }
    }
}
