import Crypto
import Foundation
import KinshipCore
import Testing

@Suite("SignedRequest")
struct SignedRequestTests {
    let secret = "kss_test-signing-secret"

    @Test("a signed request verifies with its secret and keeps its payload")
    func roundTrip() throws {
        let text = SignedRequest(issuedAt: 1_800_000_000, userID: "100000000000001").signed(with: secret)
        let request = try SignedRequest(verifying: text, secret: secret)
        #expect(request.userID == "100000000000001")
        #expect(request.issuedAt == 1_800_000_000)
        #expect(request.algorithm == "HMAC-SHA256")
    }

    @Test("one Facebook's SDKs would accept: the signature is HMAC-SHA256 of the base64url payload text")
    func facebookShape() throws {
        let text = SignedRequest(issuedAt: 1, userID: "7").signed(with: secret)
        let parts = text.split(separator: ".").map(String.init)
        let expected = HMAC<SHA256>.authenticationCode(for: Data(parts[1].utf8), using: SymmetricKey(data: Data(secret.utf8)))
        #expect(Base64URL.decode(parts[0]) == Data(expected))
        let json = try #require(Base64URL.decode(parts[1]))
        let payload = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(payload["algorithm"] as? String == "HMAC-SHA256")
        #expect(payload["user_id"] as? String == "7")
        #expect(!text.contains("="))
    }

    @Test(
        "a wrong secret, a changed payload, another algorithm and garbage are refused",
        arguments: [
            "", ".", "abc", "a.b.c", "!!!.???", "e30.e30",
        ]
    )
    func refusals(garbage: String) {
        #expect(throws: SignedRequestError.malformed) { try SignedRequest(verifying: garbage, secret: secret) }
    }

    @Test("tampering is caught")
    func tampering() throws {
        let text = SignedRequest(issuedAt: 1, userID: "7").signed(with: secret)
        #expect(throws: SignedRequestError.badSignature) { try SignedRequest(verifying: text, secret: "another secret") }
        let forged = SignedRequest(issuedAt: 1, userID: "8").signed(with: "attacker")
        let spliced = text.split(separator: ".")[0] + "." + forged.split(separator: ".")[1]
        #expect(throws: SignedRequestError.badSignature) { try SignedRequest(verifying: String(spliced), secret: secret) }
        let none = Base64URL.encode(Data(#"{"algorithm":"none","issued_at":1,"user_id":"7"}"#.utf8))
        #expect(throws: SignedRequestError.unsupportedAlgorithm("none")) { try SignedRequest(verifying: "." + none, secret: secret) }
    }
}
