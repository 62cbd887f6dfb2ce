#include "hugepageheap.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

namespace dreamrsi {

void preferHugePageHeap(std::size_t reserveBytes)
{
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
    constexpr std::uintptr_t HugePage = std::uintptr_t(2) << 20;
    // One arena: the threads' own arenas are mmapped where this cannot see them.
    mallopt(M_ARENA_MAX, 1);
    // Keep what is freed in the heap, and keep large blocks (file buffers,
    // parser tapes, up to glibc's limit of 32 MiB) in it too.
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TOP_PAD, int(reserveBytes));
    const auto before = reinterpret_cast<std::uintptr_t>(sbrk(0));
    // A block too large for what is left at the top (and below the mmap
    // threshold) makes malloc grow the heap, by the block and the top pad;
    // given back, it stays at the top.
    // (Through a volatile pointer: a compiler may drop a malloc freed at once.)
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

} // namespace dreamrsi
