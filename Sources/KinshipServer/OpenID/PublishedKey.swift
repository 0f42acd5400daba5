import Crypto
import Foundation
import KinshipCore

/// A public signing key as the JWKS publishes it (RFC 7517; RSA members from RFC 7518 §6.3.1).
struct PublishedKey: Codable, Sendable, Equatable {
    var kty = "RSA"
    var use = "sig"
    var alg: String
    var kid: String
    /// The modulus, base64url.
    var n: String
    /// The public exponent, base64url.
    var e: String

    /// The public half of an RSA key whose id is its RFC 7638 thumbprint.
    init(algorithm: String, modulus: Data, exponent: Data) {
        self.alg = algorithm
        self.n = Base64URL.encode(modulus.drop { $0 == 0 })
        self.e = Base64URL.encode(exponent.drop { $0 == 0 })
        // RFC 7638 §3.2: the required members, sorted, no white space.
        let canonical = #"{"e":"\#(e)","kty":"RSA","n":"\#(n)"}"#
        self.kid = Base64URL.encode(SHA256.hash(data: Data(canonical.utf8)))
    }
}

/// The document at `/.well-known/jwks.json`.
struct PublishedKeySet: Encodable, Sendable {
    let keys: [PublishedKey]
}
