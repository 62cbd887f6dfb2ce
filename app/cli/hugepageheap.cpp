#include "hugepageheap.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

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

/// The heap's first partial huge page (where its bookkeeping already
/// touched 4 KiB pages, or which its mapping does not cover whole) would
/// fault page by page: one block that reaches `boundary`, kept for the life
/// of the process and never touched, moves the next blocks past it.
void skipToHugePage(std::uintptr_t boundary)
{
    // A block larger than the small blocks freed so far comes from the top
    // of the heap; given back, it joins the top again.
    void *volatile probe = std::malloc(std::size_t(64) << 10);
    const auto at = reinterpret_cast<std::uintptr_t>(probe);
    std::free(probe);
    if (at >= boundary || boundary - at > HugePage)
        return; // not at the top below the boundary: nothing to skip
    // Through a volatile pointer: a compiler may drop an allocation whose
    // address is never used.
    void *volatile kept = std::malloc(boundary - at);
    (void)kept;
}
#endif

} // namespace

void preferHugePageHeap(std::size_t reserveBytes)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    static bool done = false; // the first call's reserve stands
    if (std::exchange(done, true))
        return;
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
    if (after > start + HugePage) {
        madvise(reinterpret_cast<void *>(start), after - start, MADV_HUGEPAGE);
        skipToHugePage(start);
    }
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
    // glibc makes a thread heap writable only as far as it is used, page by
    // page, and a huge page needs its whole 2 MiB writable when first
    // touched: make about half of it writable now (nothing is touched; below
    // the 32 MiB mmap threshold, so that the block comes from this heap).
    void *volatile grow = std::malloc(ThreadHeap / 2 - HugePage);
    std::free(grow);
    skipToHugePage(heap + HugePage);
#endif
}

} // namespace dreamrsi
