import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `GET /.well-known/oauth-authorization-server` (RFC 8414): where the endpoints are and what they support.
struct DiscoveryController: Sendable {
    /// The metadata document, with keys as RFC 8414 names them.
    struct Metadata: Encodable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let revocationEndpoint: String
        let scopesSupported: [String]
        let responseTypesSupported = ["code"]
        let responseModesSupported = ["query"]
        let grantTypesSupported = ["authorization_code", "fb_exchange_token"]
        let codeChallengeMethodsSupported = ["S256"]
        let tokenEndpointAuthMethodsSupported = ["client_secret_post", "client_secret_basic", "none"]
        let revocationEndpointAuthMethodsSupported = ["client_secret_post", "client_secret_basic", "none"]
        let authorizationResponseIssParameterSupported = true

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case revocationEndpoint = "revocation_endpoint"
            case scopesSupported = "scopes_supported"
            case responseTypesSupported = "response_types_supported"
            case responseModesSupported = "response_modes_supported"
            case grantTypesSupported = "grant_types_supported"
            case codeChallengeMethodsSupported = "code_challenge_methods_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
            case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
            case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        }
    }

    let issuer: Issuer

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.get("/.well-known/oauth-authorization-server") { _, _ in
            let base = issuer.url
            return JSONResponse.make(
                Metadata(
                    issuer: base, authorizationEndpoint: base + "/dialog/oauth", tokenEndpoint: base + "/oauth/access_token",
                    revocationEndpoint: base + "/oauth/revoke", scopesSupported: PermissionCatalogue.all.map(\.permission.rawValue)),
                headers: [.cacheControl: "public, max-age=3600"])
        }
    }
}
