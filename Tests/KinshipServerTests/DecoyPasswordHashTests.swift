import HummingbirdBcrypt
import Testing

@testable import KinshipServer

/// The hash a login that names no account is checked against: no password matches it, and checking
/// against it costs what checking against a real hash of the same cost does.
@Suite("The decoy password hash")
struct DecoyPasswordHashTests {
    @Test("well formed at the hasher's cost, matched by no password, as slow to check as a real hash")
    func decoy() {
        let hasher = PasswordHasher(cost: 10)
        let decoy = hasher.decoyHash()
        #expect(decoy.hasPrefix("$2b$10$") && decoy.count == 60)
        #expect(hasher.decoyHash() != decoy, "each is drawn anew")
        #expect(PasswordHasher(cost: 4).decoyHash().hasPrefix("$2b$04$"))
        let real = Bcrypt.hash("correct horse battery", cost: 10)
        let (matchesReal, realCPU) = measuringThreadCPU { Bcrypt.verify("correct horse battery", hash: real) }
        let (matchesDecoy, decoyCPU) = measuringThreadCPU { Bcrypt.verify("correct horse battery", hash: decoy) }
        #expect(matchesReal && !matchesDecoy)
        #expect(decoyCPU * 2 > realCPU && decoyCPU < realCPU * 2, "a decoy check took \(decoyCPU), a real one \(realCPU)")
    }
}
