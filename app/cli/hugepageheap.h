#pragma once

#include <cstddef>

namespace dreamrsi {

// Lets the heap of a short, allocation-heavy command (a replay of many tree
// files) grow in transparent huge pages.
//
// Why: on the virtual machines the workbench runs on, a first touch of a
// 4 KiB page costs about 11 µs (measured: 11.5 µs a fault, against 0.26 µs a
// page of a 2 MiB huge page). `dreamrsi replay` over 1,000 worlds touched
// about 2,100 new heap pages, most of them for the JSON it prints: a quarter
// of its CPU time. glibc can do this itself
// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only when the variable is set
// before the process starts.
//
// Nothing is touched here, so the memory in use does not grow until it is
// used. Both do nothing where THP is off (`never`), under AddressSanitizer,
// or outside glibc.

/// For the whole process, before it starts threads: memory that is freed
/// stays in the heap (no trimming), blocks up to 32 MiB are taken from the
/// heap rather than mmapped, and the main heap grows by `reserveBytes` at
/// once, marked MADV_HUGEPAGE. Once per process: later calls do nothing.
void preferHugePageHeap(std::size_t reserveBytes = std::size_t(64) << 20);

/// For the calling thread: marks its malloc arena MADV_HUGEPAGE. A thread's
/// arena is glibc's (it gives each thread one of its own, up to its limit):
/// a 64 MiB reservation aligned to its size, or the main heap.
///
/// Both leave the first, partial 2 MiB of their heap to what is already
/// there: glibc's bookkeeping touched it in 4 KiB pages, so it could never
/// become a huge page, and new blocks are placed after it. With that (and
/// the launcher calling preferHugePageHeap before it reads its arguments), a
/// 1,000-world built-in replay takes about 350 page faults instead of 1,400:
/// as many as a replay of one world, nearly all of them loading libraries.
void preferHugePagesOnThisThread();

} // namespace dreamrsi
