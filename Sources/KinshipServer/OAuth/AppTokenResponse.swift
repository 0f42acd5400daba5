/// The token endpoint's answer to `grant_type=client_credentials`, as Facebook gives it: the app
/// access token and its type, without an expiry (it lasts as long as the app's secret).
struct AppTokenResponse: Encodable {
    let accessToken: String
    let tokenType = "bearer"

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
    }
}
