import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `POST /oauth/revoke` (RFC 7009): an app revokes one of its access tokens, or a refresh token
/// with everything issued from its login. The answer is 200 whether or
/// not the token existed, so the endpoint tells nobody which tokens are real.
struct RevocationController: Sendable {
    let platform: Platform
    let configuration: ServerConfiguration
    let clients: ClientAuthenticator

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/oauth/revoke") { request, context in
            try await revoke(request, context)
        }
    }

    private func revoke(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await FormReader.readOAuthForm(request, limit: configuration.maxFormBytes)
        let client = try await clients.authenticate(form, headers: request.headers).get()
        if client.app.isConfidential, !client.presentedSecret {
            throw OAuthFailure(.invalidClient, "\(client.app.name) is a confidential app: authenticate with its client secret.")
        }
        guard let token = form["token"], !token.isEmpty else { throw OAuthFailure(.invalidRequest, "token is missing.") }
        if let record = try await platform.tokens.find(token: token), record.appId == client.app.id {
            try await platform.tokens.revoke(tokenHash: record.tokenHash)
            context.logger.info("Token revoked by its app", metadata: ["user.id": "\(record.userId)", "app.id": "\(record.appId)"])
        } else if let record = try await platform.refreshTokens.find(token: token), record.appId == client.app.id {
            // RFC 7009 §2.1: revoking a refresh token ends the access tokens of the same grant too.
            try await platform.refreshTokens.revokeFamily(record.familyId)
            context.logger.info("Refresh token revoked by its app", metadata: ["user.id": "\(record.userId)", "app.id": "\(record.appId)"])
        }
        return Response(status: .ok, headers: [.cacheControl: "no-store"])
    }
}
