import Crypto
import CryptoExtras
import Foundation
import JWTKit
import KinshipCore
import Testing

@testable import KinshipServer

/// id_tokens are signed with claims and headers written by hand (``IDTokenJSONEncoder``): the JSON
/// must say what jwt-kit's own encoder says, and the tokens must verify with an unchanged jwt-kit.
@Suite("The id_token's JSON, written by hand")
struct IDTokenJSONEncoderTests {
    private static let person = UserRecord(
        id: "100000000000001",
        name: "Ada \"Countess\" Lovelace \\ 日本",
        firstName: "Ada",
        middleName: "King\n",
        lastName: "Lovelace",
        username: "ada",
        email: "ada@example.com",
        passwordHash: "",
        gender: nil,
        locale: "en_GB",
        birthday: nil,
        hometown: nil,
        location: nil,
        passwordChangedAt: 0,
        createdAt: 0,
        findableByEmail: 0
    )

    private static let tokens = [
        IDToken(
            issuer: "https://kinship.example",
            subject: person.id,
            audience: "app 1",
            expiresAt: 1_800_000_000,
            issuedAt: 1_799_996_400,
            authTime: 1_799_996_000,
            nonce: "n-0S6_WzA2Mj\u{1}",
            accessToken: "kat_abc",
            claims: StandardClaims(user: person, profile: true, email: true, baseURL: "https://kinship.example")
        ),
        IDToken(
            issuer: "https://kinship.example",
            subject: person.id,
            audience: "app 2",
            expiresAt: 1,
            issuedAt: 0,
            authTime: nil,
            nonce: nil,
            accessToken: "kat_def",
            claims: StandardClaims(user: person, profile: false, email: false, baseURL: "https://kinship.example")
        ),
    ]

    /// jwt-kit's own encoder, as it signs with by default.
    private static let jwtKitEncoder: any JWTJSONEncoder = .defaultForJWT

    /// A JSON object as Foundation reads it, to compare two objects whatever their key order.
    private static func object(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    @Test("an id_token's claims: the same JSON object as jwt-kit's encoder writes", arguments: tokens)
    func claims(token: IDToken) throws {
        let written = try IDTokenJSONEncoder().encode(token)
        #expect(try Self.object(written) == Self.object(try Self.jwtKitEncoder.encode(token)))
        #expect(try JSONDecoder().decode(IDToken.self, from: written) == token)
    }

    @Test("headers: strings written by hand, anything else by jwt-kit's encoder, the same JSON either way")
    func headers() throws {
        let plain: JWTHeader = ["alg": .string("RS256"), "kid": .string("key \"1\""), "typ": .string("JWT")]
        let mixed: JWTHeader = ["alg": .string("RS256"), "crit": .array([.string("b64")]), "b64": .bool(false)]
        for header in [plain, mixed, JWTHeader()] {
            let written = try IDTokenJSONEncoder().encode(header)
            #expect(try Self.object(written) == Self.object(try Self.jwtKitEncoder.encode(header)))
        }
        #expect(String(decoding: try IDTokenJSONEncoder().encode(plain), as: UTF8.self) == #"{"alg":"RS256","kid":"key \"1\"","typ":"JWT"}"#)
    }

    @Test("an id_token signed with it verifies with jwt-kit's defaults, claims intact")
    func verifies() async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let signer = JWTKeyCollection()
        await signer.add(
            rsa: try Insecure.RSA.PrivateKey(backing: key),
            digestAlgorithm: .sha256,
            kid: "k1",
            serializer: DefaultJWTSerializer(jsonEncoder: IDTokenJSONEncoder())
        )
        let verifier = JWTKeyCollection()
        await verifier.add(rsa: try Insecure.RSA.PublicKey(backing: key.publicKey), digestAlgorithm: .sha256, kid: "k1")
        var token = Self.tokens[0]
        token.expiresAt = Int(Date().timeIntervalSince1970) + 600
        let signed = try await signer.sign(token, kid: "k1")
        #expect(try await verifier.verify(signed, as: IDToken.self) == token)
        let payload = try #require(Base64URL.decode(String(signed.split(separator: ".")[1])))
        #expect(payload == (try IDTokenJSONEncoder().encode(token)), "the claims were written by hand")
    }

    @Test("the server signs its id_tokens this way: slashes unescaped, as jwt-kit's encoder would not write them")
    func serverSignsThisWay() async throws {
        try await withLiveServer(.sqlite) { server in
            _ = try await server.makeUser()
            let app = try await server.makeApp()
            let idToken = try #require(try await server.openIDLogin(app, scope: [.openID, .publicProfile])["id_token"] as? String)
            let segments = try idToken.split(separator: ".").prefix(2).map { try #require(Base64URL.decode(String($0))) }
            let (header, payload) = (String(decoding: segments[0], as: UTF8.self), String(decoding: segments[1], as: UTF8.self))
            #expect(header.hasPrefix(#"{"alg":"RS256","kid":""#) && header.hasSuffix(#"","typ":"JWT"}"#))
            #expect(payload.contains(#""iss":"http://127.0.0.1:"#) && payload.contains(#""picture":"http://127.0.0.1:"#))
            #expect(!payload.contains(#"\/"#))
        }
    }
}
