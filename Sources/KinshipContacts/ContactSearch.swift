import Foundation

/// Runs searches over a list off the caller's task, and drops a search as soon as a newer one
/// starts: type "z", "zh", "zha" quickly and only "zha" comes back. Debouncing is the caller's
/// choice (wait ~0.3 s before calling).
public final class ContactSearch: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Task<ContactList, any Error>?

    /// A searcher with no search running.
    public init() {}

    /// The list filtered by `text`. Throws `CancellationError` when a newer search superseded this one.
    public func search(_ text: String, in list: ContactList) async throws -> ContactList {
        let task = Task.detached(priority: .userInitiated) { () throws -> ContactList in
            try Task.checkCancellation()
            var filtered = list
            filtered.searchText = text
            try Task.checkCancellation()
            return filtered
        }
        let previous = lock.withLock { () -> Task<ContactList, any Error>? in
            defer { current = task }
            return current
        }
        previous?.cancel()
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
