import HummingbirdBcrypt
import NIOPosix

/// Hashes and checks passwords with bcrypt, off the event loops (a check costs tens of milliseconds
/// by design).
struct PasswordHasher: Sendable {
    /// bcrypt's work factor: 12 in production; tests may lower it to keep runs quick.
    let cost: UInt8

    init(cost: UInt8 = 12) {
        self.cost = cost
    }

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: hash) }
    }
}
