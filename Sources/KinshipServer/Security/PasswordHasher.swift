import HummingbirdBcrypt
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

/// Hashes and checks passwords with bcrypt (a check costs a quarter of a second of CPU at cost 12,
/// by design), on threads of their own that yield to everything else.
///
/// The threads run at a lower scheduling priority (nice +10, Linux), so a storm of logins uses the
/// CPU the rest of the platform leaves free: every other request is answered at its usual pace,
/// and logins and sign-ups take what remains, as fast as bcrypt goes.
struct PasswordHasher: Sendable {
    /// bcrypt's work factor: 12 in production; tests may lower it to keep runs quick.
    let cost: UInt8

    init(cost: UInt8 = 12) {
        self.cost = cost
    }

    /// One thread per core, started on first use and kept for the life of the process.
    private static let threads: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: System.coreCount)
        pool.start()
        return pool
    }()

    func hash(_ password: String) async throws -> String {
        let cost = self.cost
        return try await Self.threads.runIfActive {
            Self.yieldToOtherWork()
            return Bcrypt.hash(password, cost: cost)
        }
    }

    /// A bcrypt hash at this cost that no password matches, made without hashing anything: checking
    /// a password against it costs what checking against a real one does (bcrypt takes the salt
    /// and the cost from the hash and compares only at the end), so a login that names no account
    /// takes as long as one with a wrong password — and the server need not spend a hash on it at
    /// start.
    func decoyHash() -> String {
        let alphabet = Array("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let cost = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$2b$" + cost + "$" + String((0..<53).map { _ in alphabet.randomElement()! })
    }

    func verify(_ password: String, against hash: String) async throws -> Bool {
        try await Self.threads.runIfActive {
            Self.yieldToOtherWork()
            return Bcrypt.verify(password, hash: hash)
        }
    }

    /// Lowers the calling thread's priority; on Linux the nice value belongs to each thread.
    private static func yieldToOtherWork() {
        #if canImport(Glibc)
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if getpriority(which, 0) < 10 { _ = setpriority(which, 0, 10) }
        #endif
    }
}
