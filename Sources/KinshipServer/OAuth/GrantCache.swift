import NIOConcurrencyHelpers

/// Token checks this process has made, each kept only while the shared ``GrantGeneration`` has
/// not moved since it was read: any revocation, in any process, empties it at once.
final class GrantCache: Sendable {
    /// The most checks kept; past that the cache starts again empty.
    static let capacity = 50_000

    /// A check and the counter it was read under.
    private struct Entry {
        let grant: TokenInspector.Grant
        let generation: UInt64
    }

    let generation: GrantGeneration
    private let entries = NIOLockedValueBox([String: Entry]())

    init(generation: GrantGeneration) {
        self.generation = generation
    }

    /// The grant checked for this token hash, if it is still current.
    func grant(forTokenHash hash: String) -> TokenInspector.Grant? {
        let current = generation.current
        return entries.withLockedValue { entries in
            guard let entry = entries[hash] else { return nil }
            guard entry.generation == current else {
                entries.removeAll(keepingCapacity: true)
                return nil
            }
            return entry.grant
        }
    }

    /// Keeps a grant read from the database while the counter stood at `generation`.
    func store(_ grant: TokenInspector.Grant, forTokenHash hash: String, readAt generation: UInt64) {
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[hash] = Entry(grant: grant, generation: generation)
        }
    }
}
