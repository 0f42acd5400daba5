import Foundation

extension Process {
    /// Starts the process and waits for it to exit without holding a thread: `waitUntilExit()`
    /// would block one of the few threads every test of the run shares, for as long as the child
    /// takes (seconds, for a Prosody start), and stall the other tests meanwhile.
    func runUntilExit() async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            terminationHandler = { process in continuation.resume(returning: process.terminationStatus) }
            do {
                try run()
            } catch {
                terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }
}
