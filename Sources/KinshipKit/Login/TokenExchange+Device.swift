import Foundation
import KinshipCore

/// A device login the platform started (RFC 8628 §3.2): what to show the person, and how to poll.
public struct DeviceAuthorization: Sendable, Equatable, Decodable {
    /// Sent with each poll; never shown.
    public var deviceCode: String
    /// The code the person types on ``verificationURI``, e.g. `BCDF-GHJK`.
    public var userCode: String
    /// The page where the person types the code.
    public var verificationURI: URL
    /// The page with the code filled in: for a link or a QR code.
    public var verificationURIComplete: URL?
    /// Seconds the code stays valid.
    public var expiresIn: Int
    /// Seconds to wait between polls.
    public var interval: Int

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }

    /// Reads the answer; `interval` defaults to 5 seconds, as RFC 8628 says.
    ///
    /// - Throws: `DecodingError` when a required field is missing.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceCode = try container.decode(String.self, forKey: .deviceCode)
        userCode = try container.decode(String.self, forKey: .userCode)
        verificationURI = try container.decode(URL.self, forKey: .verificationURI)
        verificationURIComplete = try container.decodeIfPresent(URL.self, forKey: .verificationURIComplete)
        expiresIn = try container.decode(Int.self, forKey: .expiresIn)
        // RFC 8628 §3.2: 5 seconds when the platform does not say.
        interval = try container.decodeIfPresent(Int.self, forKey: .interval) ?? 5
    }
}

/// What one poll of a device login found.
public enum DevicePoll: Sendable, Equatable {
    /// The person has not answered yet.
    case pending
    /// Polled too soon: wait 5 seconds longer from now on.
    case slowDown
    /// The person said no.
    case denied
    /// The code expired before the person answered.
    case expired
    /// The person said yes: the tokens.
    case issued(TokenExchange.Issued)
}

extension TokenExchange {
    /// Starts a device login asking for `permissions` (`public_profile` is always part of it).
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words.
    public func startDeviceLogin(permissions: [Permission]) async throws(LoginError) -> DeviceAuthorization {
        var form = clientForm()
        form.append("scope", Permission.scope(of: permissions))
        let response = try await send(formRequest(configuration.deviceAuthorizationURL, form))
        guard response.status == 200 else { throw Self.refusal(response) }
        guard let started = try? JSONDecoder().decode(DeviceAuthorization.self, from: response.body) else {
            throw .unexpectedResponse(status: response.status, detail: "the device login answer is not one: \(response.body.excerpt)")
        }
        return started
    }

    /// Polls once for the answer to `device` (RFC 8628 §3.4–3.5).
    ///
    /// - Throws: ``LoginError`` saying what went wrong in words. The answers the device keeps polling through
    ///   (pending, slow down) are ``DevicePoll`` values.
    public func poll(_ device: DeviceAuthorization) async throws(LoginError) -> DevicePoll {
        do {
            return .issued(try await issue([("grant_type", GrantType.deviceCode), ("device_code", device.deviceCode)]))
        } catch .tokenExchangeRefused(let code, let description) {
            switch code {
            case OAuthErrorCode.authorizationPending.rawValue: return .pending
            case OAuthErrorCode.slowDown.rawValue: return .slowDown
            case OAuthErrorCode.accessDenied.rawValue: return .denied
            case OAuthErrorCode.expiredToken.rawValue: return .expired
            default: throw .tokenExchangeRefused(code: code, description: description)
            }
        }
    }
}
