#include "hugepageheap.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace dreamrsi {

namespace {

#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
constexpr std::uintptr_t HugePage = std::uintptr_t(2) << 20;
/// The size (and alignment) of the heap glibc reserves for a thread's arena
/// on 64-bit systems (HEAP_MAX_SIZE, twice the largest mmap threshold).
constexpr std::uintptr_t ThreadHeap = std::uintptr_t(64) << 20;
#endif

} // namespace

void preferHugePageHeap(std::size_t reserveBytes)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    // Keep what is freed in the heap, and keep large blocks (file buffers,
    // parser tapes, up to glibc's limit of 32 MiB) in it too.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, int(reserveBytes));
    const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
    // A block too large for what is left at the top (and below the mmap
    // threshold) makes malloc grow the heap, by the block and the top pad;
    // given back, it stays at the top. (Through a volatile pointer: a
    // compiler may drop a malloc freed at once.)
    void *volatile grow = std::malloc(std::min<std::size_t>(reserveBytes / 4, std::size_t(16) << 20));
    std::free(grow);
    const auto after = reinterpret_cast<std::uintptr_t>(sbrk(0));
    const std::uintptr_t start = (before + HugePage - 1) & ~(HugePage - 1);
    if (after > start + HugePage)
        madvise(reinterpret_cast<void *>(start), after - start, MADV_HUGEPAGE);
#else
    (void)reserveBytes;
#endif
}

void preferHugePagesOnThisThread()
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    // A small block shows which arena this thread allocates from.
    void *volatile probe = std::malloc(64);
    const auto at = reinterpret_cast<std::uintptr_t>(probe);
    std::free(probe);
    if (at < reinterpret_cast<std::uintptr_t>(sbrk(0)))
        return; // the main heap: preferHugePageHeap's (mmapped heaps lie far above it)
    const std::uintptr_t heap = at & ~(ThreadHeap - 1);
    madvise(reinterpret_cast<void *>(heap), ThreadHeap, MADV_HUGEPAGE);
#endif
}

} // namespace dreamrsi
