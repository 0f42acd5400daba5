import Hummingbird
import KinshipCore
import Logging

extension TokenController {
    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code` (RFC 8628 §3.4–3.5): the device
    /// polls until the person answers. Pending is `authorization_pending`, polling sooner than the
    /// interval `slow_down` (and 5 s more from then on), a refusal `access_denied`, an old code
    /// `expired_token`; an approved code gives its tokens once.
    func redeemDeviceCode(
        _ form: FormParameters,
        _ client: ClientAuthenticator.Client,
        _ context: KinshipRequestContext
    ) async throws
        -> Response
    {
        if client.app.isConfidential, !client.presentedSecret {
            throw OAuthFailure(.invalidClient, "\(client.app.name) is a confidential app: authenticate with its client secret.")
        }
        guard let deviceCode = form["device_code"], !deviceCode.isEmpty else {
            throw OAuthFailure(.invalidRequest, "device_code is missing.")
        }
        guard let record = try await platform.deviceCodes.find(deviceCode: deviceCode), record.appId == client.app.id else {
            throw OAuthFailure(.invalidGrant, "The device code is not valid.")
        }
        if record.status == .used {
            throw OAuthFailure(.invalidGrant, "The device code was already used; start a new device login.")
        }
        guard record.expiresAt > platform.clock.now else {
            throw OAuthFailure(.expiredToken, "The device code expired before the person answered; start a new device login.")
        }
        switch record.status {
        case .denied:
            throw OAuthFailure(.accessDenied, "The person declined the login.")
        case .pending:
            switch try await platform.deviceCodes.poll(record) {
            case .tooFast(let interval):
                throw OAuthFailure(.slowDown, "Polling too fast: wait \(interval) seconds between polls.")
            case .fine:
                throw OAuthFailure(.authorizationPending, "The person has not answered yet; poll again in \(record.pollInterval) seconds.")
            }
        case .approved, .used:
            break
        }
        let login = CodeLogin(requested: record.requested, nonce: nil, authTime: record.authTime)
        let gone = OAuthFailure(.invalidGrant, "The person removed the app, or their account, after approving the device.")
        guard let authorizationID = record.authorizationId else { throw gone }
        switch try await redeem(.deviceCode(hash: record.deviceCodeHash), authorizationID: authorizationID, login: login, client: client) {
        case .redeemed(let redeemed):
            context.logger.info(
                "Device login redeemed",
                metadata: ["user.id": "\(redeemed.authorization.userID)", "app.id": "\(client.app.id)"]
            )
            return try await tokenResponse(for: redeemed, login: login, context)
        case .alreadySpent:
            throw OAuthFailure(.invalidGrant, "The device code was already used; start a new device login.")
        case .loginGone:
            throw gone
        }
    }
}
