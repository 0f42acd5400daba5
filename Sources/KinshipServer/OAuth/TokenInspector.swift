import KinshipCore

/// Decides whether an access token may be used, and if not, which Graph error says why.
struct TokenInspector: Sendable {
    /// A usable token and the login it speaks for.
    struct Grant: Sendable {
        let token: AccessTokenRecord
        let authorization: Authorization
    }

    /// Why a token may not be used: a Graph `190` error with its subcode.
    struct Refusal: Error, Sendable {
        let subcode: Int
        let message: String
        /// The token's record when the platform knows the token.
        let token: AccessTokenRecord?
    }

    let platform: Platform

    func inspect(_ token: String) async throws -> Result<Grant, Refusal> {
        guard token.hasPrefix("kat_"), let record = try await platform.tokens.find(token: token) else {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeInvalidToken, message: "Invalid OAuth access token.", token: nil))
        }
        guard let authorization = try await platform.authorizations.find(id: record.authorizationId), authorization.revokedAt == nil
        else {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeAppNotAuthorized,
                message: "Error validating access token: The user has not authorized application \(record.appId).", token: record))
        }
        if record.revokedAt != nil {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeInvalidToken,
                message: "Error validating access token: The session was invalidated (the token was revoked).", token: record))
        }
        if let user = try await platform.users.find(id: record.userId), user.passwordChangedAt > record.issuedAt {
            return .failure(Refusal(subcode: GraphErrorCode.subcodePasswordChanged,
                message: "Error validating access token: The session was invalidated because the user changed their password.",
                token: record))
        }
        if record.expiresAt <= UnixTime.now() {
            return .failure(Refusal(subcode: GraphErrorCode.subcodeExpired,
                message: "Error validating access token: Session has expired.", token: record))
        }
        return .success(Grant(token: record, authorization: authorization))
    }
}
