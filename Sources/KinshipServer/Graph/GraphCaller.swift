/// Whom a Graph call speaks for: a person through an app (a user access token), or an app on its
/// own (an app access token, `APP_ID|…`).
enum GraphCaller: Sendable {
    case person(TokenInspector.Grant)
    case app(AppRecord)

    /// The app the call comes through.
    var appID: String {
        switch self {
        case .person(let grant): grant.authorization.appID
        case .app(let app): app.id
        }
    }
}
