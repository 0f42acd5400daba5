import KinshipXMPP
import Testing

@Suite("SASL SCRAM")
struct SCRAMTests {
    @Test("RFC 5802's SHA-1 example, message for message")
    func sha1() throws {
        var client = SCRAMClient(hash: .sha1, username: "user", password: "pencil", clientNonce: "fyko+d2lbbFgONRv9qkxdawL")
        #expect(client.initialMessage == "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL")
        let final = try client.respond(to: "r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096")
        #expect(final == "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=")
        try client.verify(serverFinal: "v=rmF9pqV8S7suAoZWja4dJRkFsKQ=")
    }

    @Test("RFC 7677's SHA-256 example, and a server that cannot prove the password is refused")
    func sha256() throws {
        var client = SCRAMClient(hash: .sha256, username: "user", password: "pencil", clientNonce: "rOprNGfwEbeRWgbNEkqO")
        let final = try client.respond(to: "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096")
        #expect(final == "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
        try client.verify(serverFinal: "v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
        #expect(throws: SASLError.serverNotAuthenticated) { try client.verify(serverFinal: "v=rmF9pqV8S7suAoZWja4dJRkFsKQ=") }
        #expect(throws: SASLError.serverRejected("invalid-proof")) { try client.verify(serverFinal: "e=invalid-proof") }
    }

    @Test(
        "a challenge that does not extend our nonce, lacks a salt, weakens the iterations or asks for a billion is refused",
        arguments: [
            "r=someoneelse,s=QSXCR+Q6sek8bf92,i=4096",
            "r=abc,s=QSXCR+Q6sek8bf92,i=4096",
            "r=abcdef,i=4096",
            "r=abcdef,s=QSXCR+Q6sek8bf92,i=1",
            "r=abcdef,s=QSXCR+Q6sek8bf92",
            "r=abcdef,s=QSXCR+Q6sek8bf92,i=1000000000",
            "garbage",
        ]
    )
    func badChallenges(challenge: String) {
        var client = SCRAMClient(hash: .sha256, username: "user", password: "pencil", clientNonce: "abc")
        #expect(throws: SASLError.self) { try client.respond(to: challenge) }
    }

    @Test("usernames escape = and , as SCRAM requires")
    func escaping() {
        #expect(SCRAMClient(hash: .sha1, username: "a=b,c", password: "p", clientNonce: "n").initialMessage == "n,,n=a=3Db=2Cc,r=n")
    }
}
