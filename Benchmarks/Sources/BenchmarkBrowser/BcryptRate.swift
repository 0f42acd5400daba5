import Foundation
import HummingbirdBcrypt

/// How many bcrypt checks the machine does per second at a cost, on a number of threads: the
/// ceiling for logins and sign-ups, whose only real work should be this.
package enum BcryptRate {
    package static func measure(cost: UInt8, threads: Int, seconds: Double) async -> Double {
        let hash = Bcrypt.hash("correct horse battery", cost: cost)
        let deadline = Date().addingTimeInterval(seconds)
        let counts = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            var count = 0
                            while Date() < deadline {
                                _ = Bcrypt.verify("correct horse battery", hash: hash)
                                count += 1
                            }
                            continuation.resume(returning: count)
                        }
                    }
                }
            }
            return await group.reduce(0, +)
        }
        return Double(counts) / seconds
    }
}
