import Crypto
import CryptoExtras
import Foundation
import JWTKit
import KinshipCore
import NIOConcurrencyHelpers

/// The keys that sign id_tokens: kept in the database, so every process of a deployment signs with
/// the same key and publishes the same set, and sealed there with a key derived from the server
/// secret, so a copy of the database alone cannot sign.
///
/// A key is published from the moment it is made, signs from its activation until it is retired,
/// and stays published until every id_token it signed has expired. `kinship keys rotate` makes a
/// new key that activates ``defaultActivationDelay`` later, once relying parties that cached the
/// key set have had time to fetch it again.
public final class SigningKeys: Sendable {
    /// How long a process signs with the keys it read before reading them again (seconds).
    static let refreshInterval = 60
    /// How long relying parties may cache the published key set (seconds).
    static let publishedMaxAge = 300
    /// How long after a rotation the new key starts signing (seconds): longer than a cached key
    /// set lives, and than a process takes to read the keys again.
    public static let defaultActivationDelay = 600
    static let algorithm = "RS256"

    /// What one process signs and publishes with, until ``validUntil``.
    private struct Snapshot: Sendable {
        let signer: JWTKeyCollection
        let signingKID: String
        let published: [PublishedKey]
        let validUntil: Int
    }

    private let store: SigningKeyStore
    private let seal: SecretSeal
    private let clock: any WallClock
    private let idTokenLifetime: Int
    private let snapshot = NIOLockedValueBox<Snapshot?>(nil)

    /// The keys of `platform`, sealed with a key derived from `secret`; id_tokens live
    /// `idTokenLifetime` seconds.
    public init(platform: Platform, secret: ServerSecret, idTokenLifetime: Int) {
        self.store = SigningKeyStore(database: platform.database, clock: platform.clock)
        self.seal = SecretSeal(secret: secret, purpose: "id_token signing keys")
        self.clock = platform.clock
        self.idTokenLifetime = idTokenLifetime
    }

    /// Makes the first key when the deployment has none that signs now.
    public func prepare() async throws {
        _ = try await current()
    }

    /// Signs `payload` as a JWS with the current key, its `kid` in the header.
    func sign(_ payload: some JWTPayload) async throws -> String {
        let snapshot = try await current()
        return try await snapshot.signer.sign(payload, kid: JWKIdentifier(string: snapshot.signingKID))
    }

    /// The keys relying parties verify with.
    func published() async throws -> PublishedKeySet {
        PublishedKeySet(keys: try await current().published)
    }

    /// Makes a new key that starts signing `activationDelay` seconds from now; the keys before it
    /// stop signing then and stay published while their id_tokens are valid.
    public func rotate(activationDelay: Int = defaultActivationDelay) async throws -> SigningKeyInfo {
        let now = clock.now
        let record = try makeKey(activatesAt: now + max(0, activationDelay))
        try await store.rotate(to: record, forgetRetiredBefore: now - publicationAfterRetirement)
        snapshot.withLockedValue { $0 = nil }
        return SigningKeyInfo(record, now: now, publicationAfterRetirement: publicationAfterRetirement)
    }

    /// Every stored key, oldest first, with what it does now.
    public func list() async throws -> [SigningKeyInfo] {
        let now = clock.now
        return try await store.all().map { SigningKeyInfo($0, now: now, publicationAfterRetirement: publicationAfterRetirement) }
    }

    // MARK: - Loading

    /// How long a retired key stays published: its last id_token's lifetime, plus the time a
    /// process may go on signing with keys it read before the retirement.
    private var publicationAfterRetirement: Int { idTokenLifetime + Self.refreshInterval }

    private func current() async throws -> Snapshot {
        let now = clock.now
        if let cached = snapshot.withLockedValue({ $0 }), now < cached.validUntil { return cached }
        var loaded = try await load(now: now)
        if loaded == nil {
            _ = try await store.addFirst(try makeKey(activatesAt: now))
            loaded = try await load(now: now)
        }
        guard let loaded else { throw SigningKeysError.noSigningKey }
        snapshot.withLockedValue { $0 = loaded }
        return loaded
    }

    /// The snapshot the stored keys give at `now`, or `nil` when none of them signs now.
    private func load(now: Int) async throws -> Snapshot? {
        let records = try await store.all()
        let signing = records.last { $0.activatesAt <= now && ($0.retiredAt.map { $0 > now } ?? true) }
        guard let signing else { return nil }
        let published = records.filter { record in record.retiredAt.map { $0 + publicationAfterRetirement > now } ?? true }
        var changes = records.flatMap { [$0.activatesAt, $0.retiredAt, $0.retiredAt.map { $0 + publicationAfterRetirement }] }
            .compactMap { $0 }.filter { $0 > now }
        changes.append(now + Self.refreshInterval)
        let signer = JWTKeyCollection()
        await signer.add(
            rsa: try Insecure.RSA.PrivateKey(backing: try unseal(signing)),
            digestAlgorithm: .sha256,
            kid: JWKIdentifier(string: signing.kid),
            serializer: DefaultJWTSerializer(jsonEncoder: IDTokenJSONEncoder())
        )
        return Snapshot(
            signer: signer,
            signingKID: signing.kid,
            published: try published.map { try JSONDecoder().decode(PublishedKey.self, from: Data($0.publicJwk.utf8)) },
            validUntil: changes.min()!
        )
    }

    // MARK: - Keys

    private func makeKey(activatesAt: Int) throws -> SigningKeyRecord {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let primitives = try key.publicKey.getKeyPrimitives()
        let published = PublishedKey(algorithm: Self.algorithm, modulus: primitives.modulus, exponent: primitives.publicExponent)
        return SigningKeyRecord(
            kid: published.kid,
            algorithm: Self.algorithm,
            sealedPrivateKey: try seal.seal(key.derRepresentation, for: published.kid),
            publicJwk: String(decoding: try JSONEncoder().encode(published), as: UTF8.self),
            createdAt: clock.now,
            activatesAt: activatesAt,
            retiredAt: nil
        )
    }

    private func unseal(_ record: SigningKeyRecord) throws -> _RSA.Signing.PrivateKey {
        guard let der = seal.open(record.sealedPrivateKey, for: record.kid),
            let key = try? _RSA.Signing.PrivateKey(derRepresentation: der)
        else { throw SigningKeysError.cannotUnseal(kid: record.kid) }
        return key
    }
}

/// A signing key as `kinship keys list` shows it.
public struct SigningKeyInfo: Sendable, Equatable {
    /// What a key does at the moment it was read.
    public enum Status: String, Sendable {
        /// Published, not signing yet.
        case pending
        /// Signing new id_tokens.
        case signing
        /// No longer signing; published while its id_tokens are valid.
        case retired
        /// No longer published.
        case expired
    }

    public let kid: String
    public let algorithm: String
    public let createdAt: Int
    public let activatesAt: Int
    public let retiredAt: Int?
    /// Until when the key is published, when it has been retired.
    public let publishedUntil: Int?
    public let status: Status

    init(_ record: SigningKeyRecord, now: Int, publicationAfterRetirement: Int) {
        kid = record.kid
        algorithm = record.algorithm
        createdAt = record.createdAt
        activatesAt = record.activatesAt
        retiredAt = record.retiredAt
        publishedUntil = record.retiredAt.map { $0 + publicationAfterRetirement }
        status =
            if let publishedUntil, publishedUntil <= now { .expired } else if let retiredAt = record.retiredAt, retiredAt <= now {
                .retired
            } else if record.activatesAt > now { .pending } else { .signing }
    }
}

/// Why an id_token could not be signed.
enum SigningKeysError: Error, CustomStringConvertible {
    case noSigningKey
    case cannotUnseal(kid: String)

    var description: String {
        switch self {
        case .noSigningKey:
            "No id_token signing key could be made or read from the database."
        case .cannotUnseal(let kid):
            "The id_token signing key \(kid) cannot be unsealed with this server secret. Every process of a deployment must be "
                + "given the same --secret-file. If the secret that sealed it is lost, `kinship keys rotate --now --secret-file FILE` "
                + "makes a key this secret can use (id_tokens signed before still verify against the published key)."
        }
    }
}
