import HTTPTypes
import Hummingbird
import KinshipCore
import Logging

/// `POST /oauth/device_authorization` (RFC 8628 §3.1–3.2): a device with no browser (a TV, a
/// terminal) starts a login; the person finishes it on `/device` from a phone or computer.
struct DeviceAuthorizationController: Sendable {
    let platform: Platform
    let configuration: ServerConfiguration
    let clients: ClientAuthenticator
    let issuer: Issuer

    /// The answer: what the device shows the person, and how it polls.
    struct Answer: Encodable {
        let deviceCode: String
        let userCode: String
        let verificationURI: String
        let verificationURIComplete: String
        let expiresIn: Int
        let interval: Int

        enum CodingKeys: String, CodingKey {
            case deviceCode = "device_code"
            case userCode = "user_code"
            case verificationURI = "verification_uri"
            case verificationURIComplete = "verification_uri_complete"
            case expiresIn = "expires_in"
            case interval
        }
    }

    func addRoutes(to router: Router<KinshipRequestContext>) {
        router.post("/oauth/device_authorization") { request, context in
            try await start(request, context)
        }
    }

    private func start(_ request: Request, _ context: KinshipRequestContext) async throws -> Response {
        let form = try await FormReader.readOAuthForm(request, limit: configuration.maxFormBytes)
        let client = try await clients.authenticate(form, headers: request.headers).get()
        if client.app.isConfidential, !client.presentedSecret {
            throw OAuthFailure(.invalidClient, "\(client.app.name) is a confidential app: authenticate with its client secret.")
        }
        let asked = Permission.list(fromScope: form["scope"] ?? "")
        let unknown = PermissionCatalogue.unknown(in: asked)
        guard unknown.isEmpty else { throw OAuthFailure(.invalidScope, "Invalid scopes: \(Permission.scope(of: unknown))") }
        if let withheld = client.app.withheldPermission(in: asked) {
            throw OAuthFailure(.invalidScope, "\(withheld.rawValue) is not enabled for this app; its developer can turn it on at /developers.")
        }
        // Counted before a code is made, so parallel requests from one address get no more than the limit.
        let limits = configuration.deviceLogin
        if let retryAfter = try await platform.rateLimits.hit(
            "device-start:" + context.clientAddress,
            limit: limits.startsPerAddressPerMinute,
            windowSeconds: 60
        ) {
            context.logger.notice("Device login refused: too many from one address", metadata: ["device.address": "\(context.clientAddress)"])
            return JSONResponse.make(
                OAuthErrorBody(.slowDown, "Too many device logins from this address; wait \(retryAfter) seconds."),
                status: .tooManyRequests,
                headers: [.cacheControl: "no-store", .retryAfter: String(retryAfter)]
            )
        }
        let scope = PermissionCatalogue.loginScope(asked)
        let started = try await platform.deviceCodes.start(
            appID: client.app.id,
            scope: scope,
            lifetime: limits.codeLifetime,
            interval: limits.pollInterval
        )
        context.logger.info("Device login started", metadata: ["app.id": "\(client.app.id)", "scope": "\(Permission.scope(of: scope))"])
        let page = issuer.url + "/device"
        return JSONResponse.make(
            Answer(
                deviceCode: started.deviceCode,
                userCode: started.userCode.description,
                verificationURI: page,
                verificationURIComplete: page + "?user_code=" + started.userCode.description,
                expiresIn: limits.codeLifetime,
                interval: limits.pollInterval
            ),
            headers: [.cacheControl: "no-store", .pragma: "no-cache"]
        )
    }
}
