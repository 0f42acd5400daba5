import Foundation

/// Where the platform is and which app is talking to it.
public struct KinshipConfiguration: Sendable, Equatable {
    /// The platform's base URL, e.g. `https://kinship.example.com`.
    public var serverURL: URL
    /// The app's client id.
    public var appID: String
    /// The Graph API version put in front of Graph paths (`/v1.0/me`), or `nil` for none.
    public var graphVersion: String?
    /// Seconds a platform request may take.
    public var requestTimeout: TimeInterval

    /// A configuration for app `appID` on the platform at `serverURL`.
    ///
    /// - Parameters:
    ///   - serverURL: The platform's address, such as `https://kinship.example.com`.
    ///   - appID: The app's id from the developer pages or `kinship apps create`.
    ///   - graphVersion: The Graph API version in request paths; `nil` for unversioned paths.
    ///   - requestTimeout: Seconds a platform request may take.
    public init(serverURL: URL, appID: String, graphVersion: String? = "v1.0", requestTimeout: TimeInterval = 30) {
        self.serverURL = serverURL
        self.appID = appID
        self.graphVersion = graphVersion
        self.requestTimeout = requestTimeout
    }

    /// The login dialog.
    public var dialogURL: URL { endpoint("dialog/oauth") }
    /// The token endpoint.
    public var tokenURL: URL { endpoint("oauth/access_token") }
    /// Where a device without a browser starts a login (RFC 8628).
    public var deviceAuthorizationURL: URL { endpoint("oauth/device_authorization") }
    /// The token revocation endpoint.
    public var revocationURL: URL { endpoint("oauth/revoke") }
    /// The redirect URI of the app's custom scheme, `kinship{appID}://authorize`.
    public var customSchemeRedirectURI: String { "kinship\(appID)://authorize" }

    /// A Graph API path (`me/friends`) as a URL with the version prefix.
    public func graphURL(_ path: String) -> URL {
        let trimmed = path.drop { $0 == "/" }
        return endpoint(graphVersion.map { "\($0)/\(trimmed)" } ?? String(trimmed))
    }

    private func endpoint(_ path: String) -> URL { serverURL.appendingServerPath(path) }
}

extension URL {
    /// A path on a server, after any path the server's URL already has (`https://h/kinship` +
    /// `me` = `https://h/kinship/me`). `path` may carry a query.
    func appendingServerPath(_ path: String) -> URL {
        var base = absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return URL(string: base + "/" + path)!
    }
}
