// The C library's allocator settings `kinship serve` makes at start (glibc's mallopt, which Swift's
// Glibc module does not import). Elsewhere they do nothing.
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

// Keeps `bytes` free at the top of each of the allocator's heaps when memory is freed, and grows a
// heap by as much more when it needs to: without it, glibc gives the top of a thread's heap back to
// the kernel as soon as a request's memory is freed (madvise, and a TLB flush on every core) and
// faults it in again on the next request. Returns 1 when set.
static inline int kinship_keep_heap_top(int bytes) { return mallopt(M_TOP_PAD, bytes); }
#else
static inline int kinship_keep_heap_top(int bytes) { (void)bytes; return 0; }
#endif
