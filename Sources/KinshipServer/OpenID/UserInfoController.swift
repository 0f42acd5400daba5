import Foundation
import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `GET|POST /userinfo` (OpenID Connect Core 1.0 §5.3): the person's claims for a bearer token,
/// gated by the same permissions as `/me` — the profile with `public_profile`, the address with
/// `email`.
struct UserInfoController: Sendable {
    /// The answer: the subject and the claims the token may read.
    struct UserInfo: Encodable {
        let subject: String
        let claims: StandardClaims

        enum CodingKeys: String, CodingKey { case subject = "sub" }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(subject, forKey: .subject)
            try claims.encode(to: encoder)
        }
    }

    let inspector: TokenInspector
    let issuer: Issuer
    let configuration: ServerConfiguration

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/userinfo") { request, context in try await answer(request, context) }
        router.post("/userinfo") { request, context in try await answer(request, context) }
    }

    private func answer(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        var token = GraphController.bearerToken(request.headers)
        if token == nil, request.method == .post {
            // RFC 6750 §2.2: the token may come as a form field instead.
            token = try await FormReader.readOAuthForm(request, limit: configuration.maxFormBytes)["access_token"]
        }
        guard let token, !token.isEmpty else {
            return Self.refusal(status: .unauthorized, challenge: #"Bearer realm="kinship""#)
        }
        switch try await inspector.inspect(token) {
        case .failure(let refusal):
            context.logger.debug("userinfo refused a token", metadata: ["reason": "\(refusal.message)"])
            let description = refusal.message.replacingOccurrences(of: "\"", with: "'")
            return Self.refusal(
                status: .unauthorized,
                challenge: #"Bearer realm="kinship", error="invalid_token", error_description="\#(description)""#
            )
        case .success(let grant):
            let granted = Set(grant.authorization.granted)
            let claims = StandardClaims(
                user: grant.user,
                profile: granted.contains(.publicProfile),
                email: granted.contains(.email),
                baseURL: issuer.url
            )
            return JSONResponse.make(UserInfo(subject: grant.user.id, claims: claims), headers: [.cacheControl: "no-store"])
        }
    }

    /// RFC 6750 §3: a 401 with the challenge that says why.
    private static func refusal(status: HTTPResponse.Status, challenge: String) -> Response {
        Response(status: status, headers: [.wwwAuthenticate: challenge, .cacheControl: "no-store"])
    }
}
