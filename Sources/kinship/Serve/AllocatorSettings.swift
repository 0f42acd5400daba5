import CKinshipMalloc

/// How a serving process asks the C library's allocator to behave (glibc; elsewhere nothing).
enum AllocatorSettings {
    /// Bytes each heap keeps free at its top rather than giving back to the kernel at once. With
    /// glibc's default, the threads that read the database gave their heap's top back after nearly
    /// every request and faulted it in again on the next: `/me/friends` took 180–240 µs of CPU a
    /// request instead of about 110 (wrk, 64 connections). Half a MiB a heap is enough to stop it.
    static let keptHeapTop: Int32 = 512 * 1024

    /// Applies the settings; call once, before the server starts.
    static func apply() {
        _ = kinship_keep_heap_top(keptHeapTop)
    }
}
