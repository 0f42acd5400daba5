import Crypto
import Foundation

/// The `signed_request` Kinship posts to an app's deauthorize and data deletion callbacks, as
/// Facebook does: `base64url(HMAC-SHA256(secret, payload)).payload`, where `payload` is the
/// base64url of `{"algorithm": "HMAC-SHA256", "issued_at": …, "user_id": …}`.
///
/// The secret is the app's *signing secret*, which `kinship apps callbacks` shows once (the client
/// secret is stored only as a hash, so the platform could not sign with it). An app's server
/// verifies a callback before acting on it:
///
/// ```swift
/// let request = try SignedRequest(verifying: form["signed_request"] ?? "", secret: signingSecret)
/// forgetLogin(of: request.userID)
/// ```
public struct SignedRequest: Codable, Sendable, Equatable {
    /// The one algorithm Kinship signs with.
    public static let hmacSHA256 = "HMAC-SHA256"

    /// `HMAC-SHA256`.
    public var algorithm: String
    /// When the platform signed it, in Unix seconds (each delivery attempt signs afresh).
    public var issuedAt: Int
    /// The person the callback is about.
    public var userID: String

    /// A payload about `userID`, signed at `issuedAt`.
    public init(issuedAt: Int, userID: String) {
        self.algorithm = Self.hmacSHA256
        self.issuedAt = issuedAt
        self.userID = userID
    }

    /// Reads `text` and checks its signature with `secret`.
    ///
    /// - Throws: ``SignedRequestError/malformed`` when `text` is not two base64url parts with a
    ///   JSON payload, ``SignedRequestError/unsupportedAlgorithm(_:)`` when the payload names
    ///   another algorithm, ``SignedRequestError/badSignature`` when it was not signed with `secret`.
    public init(verifying text: String, secret: String) throws(SignedRequestError) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let signature = Base64URL.decode(String(parts[0])), let json = Base64URL.decode(String(parts[1])),
            let payload = try? JSONDecoder().decode(SignedRequest.self, from: json)
        else { throw .malformed }
        guard payload.algorithm.uppercased() == Self.hmacSHA256 else { throw .unsupportedAlgorithm(payload.algorithm) }
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(parts[1].utf8), using: Self.key(secret)) else {
            throw .badSignature
        }
        self = payload
    }

    /// This payload signed with `secret`: the value of the `signed_request` form field.
    public func signed(with secret: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let payload = Base64URL.encode((try? encoder.encode(self)) ?? Data())
        let signature = HMAC<SHA256>.authenticationCode(for: Data(payload.utf8), using: Self.key(secret))
        return Base64URL.encode(signature) + "." + payload
    }

    private static func key(_ secret: String) -> SymmetricKey {
        SymmetricKey(data: Data(secret.utf8))
    }

    enum CodingKeys: String, CodingKey {
        case algorithm
        case issuedAt = "issued_at"
        case userID = "user_id"
    }
}

/// Why a `signed_request` was refused.
public enum SignedRequestError: Error, Equatable, CustomStringConvertible {
    /// The text is not `SIGNATURE.PAYLOAD` in base64url with a JSON payload.
    case malformed
    /// The payload names an algorithm other than HMAC-SHA256.
    case unsupportedAlgorithm(String)
    /// The signature was not made with the app's signing secret.
    case badSignature

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .malformed: "The signed_request is not SIGNATURE.PAYLOAD in base64url with a JSON payload."
        case .unsupportedAlgorithm(let name): "The signed_request uses \(name); only HMAC-SHA256 is accepted."
        case .badSignature: "The signed_request's signature does not match this app's signing secret; it was not sent by the platform."
        }
    }
}
