import Crypto
import CryptoExtras
import Foundation
import JWTKit

/// How many id_token-sized JWS a 2048-bit RSA key signs per second with jwt-kit, as the server signs.
enum RS256Rate {
    struct Claims: JWTPayload {
        var iss: String
        var sub: String
        var aud: String
        var exp: Int
        var iat: Int
        var nonce: String
        var at_hash: String
        var name: String

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// Signatures per second, and how many were made.
    static func measure(tasks: Int, seconds: Int) async throws -> (Double, Int) {
        let keys = JWTKeyCollection()
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        await keys.add(rsa: try Insecure.RSA.PrivateKey(backing: key), digestAlgorithm: .sha256, kid: "bench")
        let claims = Claims(
            iss: "http://127.0.0.1:8080",
            sub: "100000000000001",
            aud: "100000000000002",
            exp: 2_000_000_000,
            iat: 1_900_000_000,
            nonce: String(repeating: "n", count: 43),
            at_hash: String(repeating: "h", count: 22),
            name: "Ada Lovelace"
        )
        let deadline = ContinuousClock.now + .seconds(seconds)
        let start = ContinuousClock.now
        let signed = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<tasks {
                group.addTask {
                    var count = 0
                    while ContinuousClock.now < deadline {
                        _ = try await keys.sign(claims, kid: "bench")
                        count += 1
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = ContinuousClock.now - start
        return (Double(signed) / (Double(elapsed.components.attoseconds) / 1e18 + Double(elapsed.components.seconds)), signed)
    }
}
