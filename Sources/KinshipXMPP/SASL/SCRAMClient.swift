import Crypto
import Foundation
import _CryptoExtras

/// The client side of SASL SCRAM (RFC 5802) with SHA-1 or SHA-256 (RFC 7677), without channel
/// binding: `initialMessage`, then ``respond(to:)`` to the server's challenge, then
/// ``verify(serverFinal:)``, which proves the server knew the password too.
public struct SCRAMClient: Sendable {
    /// The hash a SCRAM mechanism is built on.
    /// The SCRAM variants, strongest first: the client picks the first one the server offers.
    public enum Hash: String, Sendable, CaseIterable {
        /// SCRAM-SHA-512 (RFC 7677's construction with SHA-512).
        case sha512 = "SCRAM-SHA-512"
        /// SCRAM-SHA-256 (RFC 7677).
        case sha256 = "SCRAM-SHA-256"
        /// SCRAM-SHA-1 (RFC 5802).
        case sha1 = "SCRAM-SHA-1"

        /// The SASL mechanism name.
        public var mechanism: String { rawValue }

        /// The length of the hash, in bytes.
        var byteCount: Int {
            switch self {
            case .sha512: 64
            case .sha256: 32
            case .sha1: 20
            }
        }
    }

    /// Fewer PBKDF2 rounds than this is refused: a server (or an attacker in its place) asking for
    /// fewer would weaken the password's protection.
    public static let minimumIterations = 4096
    /// The most iterations a server may ask for: a hostile server could otherwise keep the client
    /// hashing for minutes (a billion rounds of PBKDF2).
    public static let maximumIterations = 1_000_000

    /// The variant this exchange uses.
    public let hash: Hash
    private let username: String
    private let password: String
    private let clientNonce: String
    private var clientFirstBare: String { "n=\(Self.saslName(username)),r=\(clientNonce)" }
    private var expectedServerSignature: Data?

    /// A client for `username`; `clientNonce` is random unless a test fixes it.
    public init(hash: Hash, username: String, password: String, clientNonce: String? = nil) {
        self.hash = hash
        self.username = username
        self.password = password
        self.clientNonce = clientNonce ?? Self.randomNonce()
    }

    /// The client-first message: GS2 header `n,,` (no channel binding) and the bare message.
    public var initialMessage: String { "n,," + clientFirstBare }

    /// The client-final message answering the server-first `challenge`.
    ///
    /// - Throws: ``SASLError`` when the server's message is malformed, asks for too many iterations, or its
    ///   signature does not match (a server that does not know the password).
    public mutating func respond(to challenge: String) throws(SASLError) -> String {
        let fields = Self.fields(of: challenge)
        guard let nonce = fields["r"], nonce.hasPrefix(clientNonce), nonce.count > clientNonce.count else {
            throw .protocolViolation("the server's nonce does not extend ours")
        }
        guard let saltText = fields["s"], let salt = Data(base64Encoded: saltText), !salt.isEmpty else {
            throw .protocolViolation("the server sent no salt")
        }
        guard let iterations = fields["i"].flatMap(Int.init), iterations >= Self.minimumIterations else {
            throw .protocolViolation("the server asked for fewer than \(Self.minimumIterations) iterations")
        }
        guard iterations <= Self.maximumIterations else {
            throw .protocolViolation("the server asked for more than \(Self.maximumIterations) iterations")
        }
        let salted = try saltedPassword(salt: salt, iterations: iterations)
        let clientKey = hmac(key: salted, "Client Key")
        let storedKey = digest(clientKey)
        let withoutProof = "c=biws,r=\(nonce)"
        let authMessage = "\(clientFirstBare),\(challenge),\(withoutProof)"
        let signature = hmac(key: storedKey, authMessage)
        let proof = Data(zip(clientKey, signature).map { $0 ^ $1 })
        expectedServerSignature = hmac(key: hmac(key: salted, "Server Key"), authMessage)
        return "\(withoutProof),p=\(proof.base64EncodedString())"
    }

    /// Checks the server-final message (`v=…`); throws when the server did not prove it knows
    /// the password, or reported an error (`e=…`).
    public func verify(serverFinal: String) throws(SASLError) {
        let fields = Self.fields(of: serverFinal)
        if let error = fields["e"] { throw .serverRejected(error) }
        guard let expected = expectedServerSignature, let text = fields["v"], let signature = Data(base64Encoded: text),
            signature.count == expected.count, zip(signature, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0
        else { throw .serverNotAuthenticated }
    }

    private func saltedPassword(salt: Data, iterations: Int) throws(SASLError) -> Data {
        let function: KDF.Insecure.PBKDF2.HashFunction =
            switch hash {
            case .sha512: .sha512
            case .sha256: .sha256
            case .sha1: .insecureSHA1
            }
        do {
            let key = try KDF.Insecure.PBKDF2.deriveKey(
                from: Data(password.utf8),
                salt: salt,
                using: function,
                outputByteCount: hash.byteCount,
                unsafeUncheckedRounds: iterations
            )
            return key.withUnsafeBytes { Data($0) }
        } catch {
            throw .protocolViolation("the password could not be salted: \(error)")
        }
    }

    private func hmac(key: Data, _ message: String) -> Data {
        hmac(key: key, Data(message.utf8))
    }

    private func hmac(key: Data, _ message: Data) -> Data {
        let symmetric = SymmetricKey(data: key)
        return switch hash {
        case .sha512: Data(HMAC<SHA512>.authenticationCode(for: message, using: symmetric))
        case .sha256: Data(HMAC<SHA256>.authenticationCode(for: message, using: symmetric))
        case .sha1: Data(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: symmetric))
        }
    }

    private func digest(_ data: Data) -> Data {
        switch hash {
        case .sha512: Data(SHA512.hash(data: data))
        case .sha256: Data(SHA256.hash(data: data))
        case .sha1: Data(Insecure.SHA1.hash(data: data))
        }
    }

    /// `a=1,b=2` as a dictionary (values may contain `=`).
    private static func fields(of message: String) -> [String: String] {
        var fields: [String: String] = [:]
        for part in message.split(separator: ",") {
            guard let equals = part.firstIndex(of: "="), equals > part.startIndex else { continue }
            fields[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        return fields
    }

    /// A username with `=` and `,` escaped as SCRAM requires.
    static func saslName(_ name: String) -> String {
        name.replacingOccurrences(of: "=", with: "=3D").replacingOccurrences(of: ",", with: "=2C")
    }

    private static func randomNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
            .replacingOccurrences(of: ",", with: "")
    }
}

/// Why SASL authentication failed.
public enum SASLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the credentials (`<failure><not-authorized/>`) or said why (`e=`).
    case serverRejected(String)
    /// The server's final message did not prove it knows the password: it may not be the server.
    case serverNotAuthenticated
    /// The exchange broke the protocol.
    case protocolViolation(String)

    /// A sentence for the developer.
    public var description: String {
        switch self {
        case .serverRejected(let condition): "The server refused the login: \(condition)."
        case .serverNotAuthenticated: "The server could not prove it knows the password; the connection is not trusted."
        case .protocolViolation(let reason): "The SASL exchange failed: \(reason)."
        }
    }
}
