import Crypto
import Foundation
import JWTKit
import KinshipCore

/// Checks id_tokens from one Kinship platform: the RS256 signature against the keys the platform
/// publishes (`jwks_uri` in its discovery document), then `iss`, `aud`, `exp`, `iat`, `nonce` and
/// `at_hash` (OpenID Connect Core 1.0 §3.1.3.7).
///
/// The discovery document and keys are fetched on first use and kept; a token signed with a key
/// the verifier has not seen (the platform rotated its keys) makes it fetch them again, at most
/// once every ``keyRefetchInterval`` seconds. Only RS256 tokens naming a published key are accepted.
public actor AuthenticationTokenVerifier {
    /// How far clocks may disagree, in seconds, when `exp` and `iat` are checked.
    public let leeway: TimeInterval
    /// The least time between two fetches of the keys.
    public let keyRefetchInterval: TimeInterval = 10
    private let configuration: KinshipConfiguration
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Date
    private var published: PublishedKeys?

    /// A verifier for the platform and app in `configuration`; `clock` tells the time.
    public init(
        configuration: KinshipConfiguration,
        transport: any HTTPTransport = SystemTransport(),
        leeway: TimeInterval = 60,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.configuration = configuration
        self.transport = transport
        self.leeway = leeway
        self.clock = clock
    }

    /// Verifies `idToken` for this app. `nonce` is the one the login sent (a token that carries
    /// another, or none when one was sent, is refused); `accessToken`, when given, must match the
    /// token's `at_hash`.
    ///
    /// - Parameters:
    ///   - idToken: The id_token as the token endpoint returned it.
    ///   - nonce: The nonce the login sent; the token must repeat it.
    ///   - accessToken: The access token issued with it, checked against `at_hash` when given.
    ///
    /// - Throws: ``AuthenticationTokenError/keysUnavailable(_:)`` when the signing keys cannot be read,
    ///   ``AuthenticationTokenError/rejected(_:)`` naming the check that failed.
    public func verify(
        _ idToken: String,
        nonce: String?,
        accessToken: String? = nil
    ) async throws(AuthenticationTokenError)
        -> AuthenticationToken
    {
        let (payload, issuer) = try await verifySignature(of: idToken)
        let claims = payload.claims
        let now = clock()
        guard claims.issuer == issuer else { throw .rejected("it was issued by \(claims.issuer), not by \(issuer)") }
        guard claims.expirationDate.addingTimeInterval(leeway) > now else {
            throw .rejected("it expired at \(claims.expirationDate.formatted(.iso8601))")
        }
        guard claims.issuedAt <= now.addingTimeInterval(leeway) else {
            throw .rejected("it was issued in the future (\(claims.issuedAt.formatted(.iso8601))); check this device's clock")
        }
        if let nonce, claims.nonce != nonce { throw .rejected("its nonce is not the one this login sent") }
        if let accessToken, let hash = claims.accessTokenHash, hash != Self.accessTokenHash(accessToken) {
            throw .rejected("its at_hash does not match the access token issued with it")
        }
        return AuthenticationToken(tokenString: idToken, nonce: nonce, claims: claims)
    }

    /// The verified payload and the issuer it must name; fetches the keys again once when the
    /// token names a key that is not among them. jwt-kit would fall back on its default key for an
    /// unknown `kid`, so the header is read here first.
    private func verifySignature(of idToken: String) async throws(AuthenticationTokenError) -> (IDTokenPayload, String) {
        let header = try Self.header(of: idToken)
        guard header.alg == "RS256" else { throw .rejected("it is signed with \(header.alg), not RS256") }
        var keys = try await currentKeys(refetching: false)
        if !keys.kids.contains(header.kid) { keys = try await currentKeys(refetching: true) }
        guard keys.kids.contains(header.kid) else { throw .rejected("it was signed with a key the platform does not publish") }
        do {
            return (try await keys.collection.verify(idToken, as: IDTokenPayload.self, expectedAudience: configuration.appID), keys.issuer)
        } catch let error as JWTError {
            throw .rejected(Self.reason(error))
        } catch {
            throw .rejected("it is not a well-formed id_token")
        }
    }

    /// The JWS header's `alg` and `kid`.
    private static func header(of idToken: String) throws(AuthenticationTokenError) -> (alg: String, kid: String) {
        struct Header: Decodable {
            let alg: String
            let kid: String?
        }
        let parts = idToken.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[0])), let header = try? JSONDecoder().decode(Header.self, from: data)
        else { throw .rejected("it is not a well-formed id_token (a JWS in compact form)") }
        guard let kid = header.kid else { throw .rejected("its header names no key (kid)") }
        return (header.alg, kid)
    }

    private func currentKeys(refetching: Bool) async throws(AuthenticationTokenError) -> PublishedKeys {
        if let published, !refetching || clock().timeIntervalSince(published.fetchedAt) < keyRefetchInterval { return published }
        let fetched = try await fetchKeys()
        published = fetched
        return fetched
    }

    /// Reads the discovery document (whose issuer must be the configured server) and its JWKS.
    private func fetchKeys() async throws(AuthenticationTokenError) -> PublishedKeys {
        struct Discovery: Decodable {
            let issuer: String
            let jwksURI: String
            enum CodingKeys: String, CodingKey {
                case issuer
                case jwksURI = "jwks_uri"
            }
        }
        let discoveryURL = configuration.serverURL.appendingServerPath(".well-known/openid-configuration")
        let discovery = try await fetch(discoveryURL, as: Discovery.self)
        let expected = configuration.serverURL.absoluteString.trimmingSuffix("/")
        guard discovery.issuer.trimmingSuffix("/") == expected else {
            throw .keysUnavailable("the platform's issuer is \(discovery.issuer), but this app is configured for \(expected)")
        }
        guard let jwksURL = URL(string: discovery.jwksURI), jwksURL.scheme == "https" || jwksURL.scheme == "http" else {
            throw .keysUnavailable("the discovery document's jwks_uri \(discovery.jwksURI) is not an http(s) URL")
        }
        let jwks = try await fetch(jwksURL, as: JWKS.self)
        let collection = JWTKeyCollection()
        do {
            try await collection.add(jwks: jwks)
        } catch {
            throw .keysUnavailable("the platform publishes keys this app cannot use (RSA keys with a kid are expected)")
        }
        let kids = Set(jwks.keys.compactMap { $0.keyIdentifier?.string })
        return PublishedKeys(collection: collection, kids: kids, issuer: discovery.issuer, fetchedAt: clock())
    }

    private func fetch<Document: Decodable>(_ url: URL, as document: Document.Type) async throws(AuthenticationTokenError) -> Document {
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(url: url, headers: ["Accept": "application/json"], timeout: configuration.requestTimeout)
            )
        } catch {
            throw .keysUnavailable("\(url.absoluteString) could not be reached: \(error)")
        }
        guard response.status == 200, let decoded = try? JSONDecoder().decode(Document.self, from: response.body) else {
            throw .keysUnavailable("\(url.absoluteString) answered HTTP \(response.status) without the expected JSON: \(response.body.excerpt)")
        }
        return decoded
    }

    /// `at_hash`: the left half of the access token's SHA-256, base64url (Core 1.0 §3.1.3.6).
    static func accessTokenHash(_ accessToken: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(accessToken.utf8))).prefix(16))
    }

    private static func reason(_ error: JWTError) -> String {
        switch error.errorType {
        case .signatureVerificationFailed: "its signature does not verify with the platform's key"
        case .claimVerificationFailure: "it was issued to another app"
        default: "it is not a well-formed id_token"
        }
    }
}

/// The platform's keys as last fetched.
private struct PublishedKeys: Sendable {
    let collection: JWTKeyCollection
    let kids: Set<String>
    let issuer: String
    let fetchedAt: Date
}

/// The id_token as jwt-kit reads it: the audience it checks, and the claims the verifier checks
/// with its own clock afterwards.
struct IDTokenPayload: JWTIdentityToken {
    var audience: AudienceClaim
    var claims: AuthenticationTokenClaims

    enum CodingKeys: String, CodingKey {
        case audience = "aud"
    }

    init(from decoder: any Decoder) throws {
        audience = try decoder.container(keyedBy: CodingKeys.self).decode(AudienceClaim.self, forKey: .audience)
        claims = try AuthenticationTokenClaims(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try claims.encode(to: encoder)
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// Why an id_token was not accepted.
public enum AuthenticationTokenError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The platform's discovery document or keys could not be read.
    case keysUnavailable(String)
    /// The token failed a check.
    case rejected(String)

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .keysUnavailable(let reason): "The platform's signing keys could not be read: \(reason)."
        case .rejected(let reason): "The id_token was refused: \(reason)."
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var trimmed = self
        while trimmed.hasSuffix(suffix) { trimmed.removeLast(suffix.count) }
        return trimmed
    }
}
