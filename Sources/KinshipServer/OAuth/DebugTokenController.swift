import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `GET /debug_token?input_token=T&access_token=APP_TOKEN`: what a token is, for the app's own
/// server, which proves itself with its app access token (or `APP_ID|APP_SECRET`). An app learns
/// nothing about tokens of other apps.
struct DebugTokenController: Sendable {
    let platform: Platform
    let inspector: TokenInspector
    let appTokens: AppAccessTokens

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/debug_token") { request, context in try await debug(request, context) }
    }

    private func debug(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let query = FormReader.query(of: request)
        let bearer = request.headers[.authorization].flatMap { $0.lowercased().hasPrefix("bearer ") ? String($0.dropFirst(7)) : nil }
        guard let appToken = query["access_token"] ?? bearer, AppAccessTokens.isAppToken(appToken) else {
            return GraphErrorResponse.make(
                code: GraphErrorCode.invalidToken,
                message: "debug_token needs an app access token (grant_type=client_credentials, or APP_ID|APP_SECRET).",
                status: .unauthorized,
                context: context
            )
        }
        guard let app = try await appTokens.app(for: appToken) else {
            return GraphErrorResponse.make(
                code: GraphErrorCode.invalidToken,
                message: "Invalid OAuth access token signature.",
                status: .unauthorized,
                context: context
            )
        }
        guard let inputToken = query["input_token"], !inputToken.isEmpty else {
            return GraphErrorResponse.make(
                code: GraphErrorCode.invalidParameter,
                message: "The parameter input_token is required.",
                type: "GraphMethodException",
                status: .badRequest,
                context: context
            )
        }
        return JSONResponse.make(["data": try await describe(inputToken, for: app)])
    }

    private func describe(_ token: String, for app: AppRecord) async throws -> TokenDebugInfo {
        if AppAccessTokens.isAppToken(token), let tokenApp = try await appTokens.app(for: token), tokenApp.id == app.id {
            return TokenDebugInfo(
                appID: app.id,
                type: "APP",
                application: app.name,
                userID: nil,
                scopes: [],
                isValid: true,
                expiresAt: nil,
                issuedAt: nil,
                error: nil
            )
        }
        switch try await inspector.inspect(token) {
        case .success(let grant) where grant.token.appId == app.id:
            return TokenDebugInfo(
                appID: app.id,
                type: "USER",
                application: app.name,
                userID: grant.token.userId,
                scopes: grant.authorization.granted,
                isValid: true,
                expiresAt: grant.token.expiresAt,
                issuedAt: grant.token.issuedAt,
                error: nil
            )
        case .failure(let refusal) where refusal.token?.appId == app.id:
            let record = refusal.token!
            return TokenDebugInfo(
                appID: app.id,
                type: "USER",
                application: app.name,
                userID: record.userId,
                scopes: [],
                isValid: false,
                expiresAt: record.expiresAt,
                issuedAt: record.issuedAt,
                error: .init(code: GraphErrorCode.invalidToken, subcode: refusal.subcode, message: refusal.message)
            )
        default:
            return TokenDebugInfo(
                appID: nil,
                type: nil,
                application: nil,
                userID: nil,
                scopes: [],
                isValid: false,
                expiresAt: nil,
                issuedAt: nil,
                error: .init(
                    code: GraphErrorCode.invalidToken,
                    subcode: GraphErrorCode.subcodeInvalidToken,
                    message: "Invalid OAuth access token."
                )
            )
        }
    }
}
