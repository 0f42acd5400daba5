import Foundation
import Hummingbird
import KinshipCore
import KinshipKit

/// The sample social app: the web version of the reference documents' iOS app, served under
/// `/sample`.
///
/// It is an ordinary confidential app of the platform. It talks to the platform only through the
/// public OAuth and Graph endpoints, with ``KinshipKit`` (``TokenExchange`` with its client secret,
/// ``GraphClient``), over HTTP, exactly as an app on another host would; it never reads the
/// platform's database.
public struct SampleApp: Sendable {
    /// Where the app is mounted.
    public static let path = "/sample"
    /// The redirect URI's path.
    public static let callbackPath = "/sample/callback"
    /// Where the platform tells the app that a person removed it (a `signed_request`).
    public static let deauthorizePath = "/sample/deauthorize"
    /// What the app asks for on its first login.
    public static let permissions: [Permission] = [.publicProfile, .email, .userFriends]
    /// The app's name on the platform.
    public static let name = "Kinship Sample"

    let configuration: @Sendable () -> KinshipConfiguration
    let clientSecret: String
    /// The secret the platform signs the app's callbacks with.
    let signingSecret: String
    let transport: any HTTPTransport
    let secureCookies: Bool
    let sessions = SampleSessionStore()
    let pages: SamplePages

    /// The app with its platform credentials; `platformURL` is read on each request, as a server
    /// started on port 0 learns its address only once it listens.
    public static func make(
        appID: String,
        clientSecret: String,
        signingSecret: String,
        platformURL: @escaping @Sendable () -> String,
        secureCookies: Bool,
        transport: any HTTPTransport = SystemTransport()
    ) async throws -> SampleApp {
        SampleApp(
            configuration: { KinshipConfiguration(serverURL: URL(string: platformURL())!, appID: appID, requestTimeout: 10) },
            clientSecret: clientSecret,
            signingSecret: signingSecret,
            transport: transport,
            secureCookies: secureCookies,
            pages: try await SamplePages.load()
        )
    }

    /// Adds the app's pages, its JSON for the friend picker, and its assets.
    public func addRoutes<Context: RequestContext>(to router: Router<Context>) {
        let controller = SampleController(app: self)
        router.get("/sample") { request, context in try await controller.home(request, context.logger) }
        router.get("/sample/login") { request, _ in await controller.logIn(request) }
        router.get("/sample/callback") { request, context in await controller.callback(request, context.logger) }
        router.get("/sample/friends.json") { request, context in await controller.friends(request, context.logger) }
        router.get("/sample/settings") { request, context in try await controller.settings(request, context.logger) }
        router.post("/sample/settings/revoke") { request, context in try await controller.revoke(request, context.logger) }
        router.post("/sample/logout") { request, _ in try await controller.logOut(request) }
        router.post("/sample/remove") { request, context in try await controller.remove(request, context.logger) }
        router.post("/sample/deauthorize") { request, context in try await controller.deauthorize(request, context.logger) }
        router.get("/sample/assets/:name") { _, context in
            guard let name = context.parameters.get("name"), let asset = pages.assets[name] else {
                return Response(status: .notFound)
            }
            return Response(
                status: .ok,
                headers: [.contentType: asset.contentType, .cacheControl: "public, max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(string: asset.body))
            )
        }
    }

    /// The redirect URI the app uses with the platform it talks to now.
    var redirectURI: String {
        configuration().serverURL.absoluteString.trimmingSuffix("/") + Self.callbackPath
    }

    func graph(_ token: AccessToken) -> GraphClient {
        GraphClient(configuration: configuration(), tokens: FixedToken(token: token), transport: transport)
    }

    func cookie(_ session: SampleSession) -> Cookie {
        Cookie(
            name: SampleController.cookieName,
            value: session.id,
            path: Self.path,
            secure: secureCookies,
            httpOnly: true,
            sameSite: .lax
        )
    }
}

/// A token held by the sample's session for the length of one request.
private struct FixedToken: AccessTokenProvider {
    let token: AccessToken
    func currentAccessToken() async -> AccessToken? { token }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
