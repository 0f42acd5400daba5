import Atomics
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counter every process using one SQLite database shares through a small memory-mapped file
/// beside it (`DATABASE-grants`), bumped around every write that changes what a token may do.
///
/// It lets each process keep token checks in memory and still refuse a revoked token at once in
/// every process: a cached check is used only while the counter has not moved since it was read
/// from the database. The counter is bumped before the write (so nothing read during the write
/// outlives it) and after the commit (so nothing read before the commit does).
final class GrantGeneration: @unchecked Sendable {
    private let counter: UnsafeAtomic<UInt64>
    private let mapping: UnsafeMutableRawPointer

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
    }

    deinit {
        munmap(mapping, MemoryLayout<UInt64>.size)
    }

    /// The counter now.
    var current: UInt64 { counter.load(ordering: .acquiring) }

    /// Runs a write that changes grants, bumping the counter before it and after it commits.
    func changing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        counter.wrappingIncrement(ordering: .acquiringAndReleasing)
        defer { counter.wrappingIncrement(ordering: .acquiringAndReleasing) }
        return try await write()
    }
}

extension Optional where Wrapped == GrantGeneration {
    /// Runs a write that changes grants, bumping the shared counter when there is one.
    func changing<Result>(_ write: () async throws -> Result) async rethrows -> Result {
        guard case .some(let generation) = self else { return try await write() }
        return try await generation.changing(write)
    }
}
