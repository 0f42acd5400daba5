import NIOConcurrencyHelpers

/// Values this process read from the database, each kept only while the shared
/// ``GrantGeneration`` has not moved since it was read: any change to what it caches, in any
/// process, empties it at once. Token checks are kept by their token's hash, apps by their id.
final class GenerationCache<Value: Sendable>: Sendable {
    /// The most values kept; past that the cache starts again empty.
    static var capacity: Int { 50_000 }

    /// A value and the counter it was read under.
    private struct Entry {
        let value: Value
        let generation: UInt64
    }

    let generation: GrantGeneration
    private let entries = NIOLockedValueBox([String: Entry]())

    init(generation: GrantGeneration) {
        self.generation = generation
    }

    /// The value kept for `key`, if it is still current.
    func value(for key: String) -> Value? {
        let current = generation.current
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.generation == current else {
                entries.removeAll(keepingCapacity: true)
                return nil
            }
            return entry.value
        }
    }

    /// Keeps a value read from the database while the counter stood at `generation` (read before
    /// the value was, so a change committed meanwhile leaves the value unused).
    func store(_ value: Value, for key: String, readAt generation: UInt64) {
        entries.withLockedValue { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = Entry(value: value, generation: generation)
        }
    }
}
