import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// Where the endpoints are and what they support: `GET /.well-known/openid-configuration`
/// (OpenID Connect Discovery 1.0) and `GET /.well-known/oauth-authorization-server` (RFC 8414)
/// give the same document; `GET /.well-known/jwks.json` the keys id_tokens are signed with.
struct DiscoveryController: Sendable {
    /// The metadata document, with keys as the two specifications name them.
    struct Metadata: Encodable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let userinfoEndpoint: String
        let jwksURI: String
        let revocationEndpoint: String
        let deviceAuthorizationEndpoint: String
        let scopesSupported: [String]
        let responseTypesSupported = ["code"]
        let responseModesSupported = ["query"]
        let grantTypesSupported = ["authorization_code", "refresh_token", GrantType.deviceCode, "fb_exchange_token"]
        let subjectTypesSupported = ["public"]
        let idTokenSigningAlgValuesSupported = [SigningKeys.algorithm]
        let claimsSupported = [
            "sub", "iss", "aud", "exp", "iat", "auth_time", "nonce", "at_hash", "name", "given_name", "middle_name", "family_name",
            "preferred_username", "picture", "locale", "email", "email_verified",
        ]
        let promptValuesSupported = AuthorizationRequest.Prompt.allCases.map(\.rawValue)
        let codeChallengeMethodsSupported = ["S256"]
        let tokenEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
        let revocationEndpointAuthMethodsSupported = ["client_secret_basic", "client_secret_post", "none"]
        let authorizationResponseIssParameterSupported = true
        let claimsParameterSupported = false
        let requestParameterSupported = false
        let requestURIParameterSupported = false

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case userinfoEndpoint = "userinfo_endpoint"
            case jwksURI = "jwks_uri"
            case revocationEndpoint = "revocation_endpoint"
            case deviceAuthorizationEndpoint = "device_authorization_endpoint"
            case scopesSupported = "scopes_supported"
            case responseTypesSupported = "response_types_supported"
            case responseModesSupported = "response_modes_supported"
            case grantTypesSupported = "grant_types_supported"
            case subjectTypesSupported = "subject_types_supported"
            case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
            case claimsSupported = "claims_supported"
            case promptValuesSupported = "prompt_values_supported"
            case codeChallengeMethodsSupported = "code_challenge_methods_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
            case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
            case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
            case claimsParameterSupported = "claims_parameter_supported"
            case requestParameterSupported = "request_parameter_supported"
            case requestURIParameterSupported = "request_uri_parameter_supported"
        }

        init(issuer base: String) {
            issuer = base
            authorizationEndpoint = base + "/dialog/oauth"
            tokenEndpoint = base + "/oauth/access_token"
            userinfoEndpoint = base + "/userinfo"
            jwksURI = base + "/.well-known/jwks.json"
            revocationEndpoint = base + "/oauth/revoke"
            deviceAuthorizationEndpoint = base + "/oauth/device_authorization"
            scopesSupported = ["openid", "profile", "offline_access"] + PermissionCatalogue.all.map(\.permission.rawValue)
        }
    }

    let issuer: Issuer
    let signingKeys: SigningKeys

    func addRoutes(to router: Router<KinshipRequestContext>) {
        for path in ["/.well-known/openid-configuration", "/.well-known/oauth-authorization-server"] {
            router.get(RouterPath(path)) { _, _ in
                JSONResponse.make(Metadata(issuer: issuer.url), headers: [.cacheControl: "public, max-age=3600"])
            }
        }
        router.get("/.well-known/jwks.json") { _, _ in
            JSONResponse.make(try await signingKeys.published(), headers: [.cacheControl: "public, max-age=\(SigningKeys.publishedMaxAge)"])
        }
    }
}
