import Foundation
import JWTKit
import NIOCore

/// The JSON encoder jwt-kit signs id_tokens with: an id_token's claims, and a header of strings
/// only (`alg`, `kid`, `typ`), are written straight into their bytes (``JSONObjectWriter``); any
/// other value goes through jwt-kit's own encoder.
///
/// Every code exchange of an OpenID login signs an id_token, and `JSONEncoder` cost about 10 µs of
/// each for these two small objects. The OpenID tests check both encoders give the same JSON.
struct IDTokenJSONEncoder: JWTJSONEncoder {
    private static let fallback: any JWTJSONEncoder = .defaultForJWT

    func encode<T: Encodable>(_ value: T) throws -> Data {
        if let token = value as? IDToken { return Data(token.json.readableBytesView) }
        if let header = value as? JWTHeader, let json = Self.json(ofStringHeader: header) { return json }
        return try Self.fallback.encode(value)
    }

    /// A header whose fields are all strings, keys sorted; `nil` for any other header.
    private static func json(ofStringHeader header: JWTHeader) -> Data? {
        var object = JSONObjectWriter(capacity: 128)
        for (name, field) in header.fields.sorted(by: { $0.key < $1.key }) {
            guard case .string(let value) = field else { return nil }
            object.member(named: name, value)
        }
        return Data(object.finish().readableBytesView)
    }
}
