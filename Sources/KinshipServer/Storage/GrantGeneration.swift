import Atomics
import Foundation
import KinshipCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counter that moves whenever a write changes what a token may do, in this process or any
/// other on the same database, so that each process can keep token checks in memory and still
/// refuse a revoked token at once: a cached check is used only while the counter has not moved
/// since it was read from the database.
///
/// - On SQLite every process shares the counter through a small memory-mapped file beside the
///   database (`DATABASE-grants`).
/// - On PostgreSQL, whose processes may run on several hosts, each process keeps its own counter,
///   announces its changes with `NOTIFY kinship_grants`, and moves its counter on every
///   notification that its ``GrantNotificationListener`` hears. While that listener is not
///   listening (not yet connected, or its connection lost), ``current`` never repeats a value,
///   so nothing cached matches and every check reads the database: a lost notification can never
///   leave a revoked grant in use.
///
/// The counter moves before a write (so nothing read during the write outlives it) and after the
/// commit (so nothing read before the commit does).
final class GrantGeneration: @unchecked Sendable {
    /// The channel PostgreSQL processes announce grant changes on.
    static let channel = "kinship_grants"

    private let counter: UnsafeAtomic<UInt64>
    /// The mapped file of an SQLite database's counter; `nil` for a counter of this process's own.
    private let mapping: UnsafeMutableRawPointer?
    /// PostgreSQL: whether the listener hears other processes' changes now.
    private let listening: ManagedAtomic<Bool>?
    /// PostgreSQL: tells the other processes that grants changed.
    private let announce: (@Sendable () async -> Void)?
    /// PostgreSQL: the `application_name` of this process's listening connection.
    let listenerName: String

    /// Maps the counter file for an SQLite database; `nil` when it cannot be mapped, and then
    /// token checks are simply not cached.
    init?(databasePath: String) {
        let descriptor = open(databasePath + "-grants", O_RDWR | O_CREAT, 0o600)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(MemoryLayout<UInt64>.size)) == 0,
            let mapping = mmap(nil, MemoryLayout<UInt64>.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
            mapping != MAP_FAILED
        else { return nil }
        self.mapping = mapping
        counter = UnsafeAtomic(at: mapping.assumingMemoryBound(to: UnsafeAtomic<UInt64>.Storage.self))
        listening = nil
        announce = nil
        listenerName = ""
    }

    /// A counter of this process's own for a PostgreSQL database: `announce` sends the
    /// notification, and cached checks are trusted only once ``listenerStarted()`` is called.
    init(announcing announce: @escaping @Sendable () async -> Void) {
        mapping = nil
        counter = .create(0)
        listening = ManagedAtomic(false)
        self.announce = announce
        listenerName = "kinship-grants-" + Base64URL.random(byteCount: 6)
    }

    deinit {
        if let mapping {
            munmap(mapping, MemoryLayout<UInt64>.size)
        } else {
            counter.destroy()
        }
    }

    /// The counter now: a value never seen before while another process's change could go unheard.
    var current: UInt64 {
        if let listening, !listening.load(ordering: .acquiring) {
            return counter.wrappingIncrementThenLoad(ordering: .acquiringAndReleasing)
        }
        return counter.load(ordering: .acquiring)
    }

    /// Whether cached checks may be used now: always on SQLite; on PostgreSQL while the listener
    /// hears the other processes.
    var isTrusted: Bool { listening?.load(ordering: .acquiring) ?? true }

    /// Runs a write that changes grants, moving the counter before it and after it commits, and
    /// on PostgreSQL telling the other processes after the commit.
    func changing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        counter.wrappingIncrement(ordering: .acquiringAndReleasing)
        defer { counter.wrappingIncrement(ordering: .acquiringAndReleasing) }
        let result = try await write()
        await announce?()
        return result
    }

    /// Another process changed grants.
    func changedElsewhere() {
        counter.wrappingIncrement(ordering: .acquiringAndReleasing)
    }

    /// The listener is listening: from now on every change is heard, so cached checks may be used.
    func listenerStarted() {
        counter.wrappingIncrement(ordering: .acquiringAndReleasing)
        listening?.store(true, ordering: .releasing)
    }

    /// The listener stopped hearing changes: every check reads the database until it is back.
    func listenerStopped() {
        listening?.store(false, ordering: .releasing)
        counter.wrappingIncrement(ordering: .acquiringAndReleasing)
    }
}

extension Optional where Wrapped == GrantGeneration {
    /// Runs a write that changes grants, moving the shared counter when there is one.
    func changing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        guard case .some(let generation) = self else { return try await write() }
        return try await generation.changing(write)
    }
}
