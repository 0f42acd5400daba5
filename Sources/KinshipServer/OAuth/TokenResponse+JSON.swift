import KinshipCore
import NIOCore

extension TokenResponse {
    /// The answer as `JSONEncoder` writes it for ``JSONResponse`` (keys sorted, absent members left
    /// out), written by hand: every token the endpoint issues is encoded here, and `JSONEncoder` cost
    /// several microseconds of each. The token endpoint tests check both agree.
    var json: ByteBuffer {
        var object = JSONObjectWriter(capacity: 256 + (idToken?.utf8.count ?? 0))
        object.member("access_token", accessToken)
        object.member("declined_scopes", declinedScopes.map(\.rawValue))
        object.member("expires_in", expiresIn)
        object.member("granted_scopes", grantedScopes.map(\.rawValue))
        if let idToken { object.member("id_token", idToken) }
        if let refreshToken { object.member("refresh_token", refreshToken) }
        if let refreshTokenExpiresIn { object.member("refresh_token_expires_in", refreshTokenExpiresIn) }
        if let scope { object.member("scope", scope) }
        object.member("token_type", tokenType)
        return object.finish()
    }
}
