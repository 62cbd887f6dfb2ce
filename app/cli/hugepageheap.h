#pragma once

#include <cstddef>

namespace dreamrsi {

/// Lets the heap of a short, allocation-heavy command (a replay of many
/// tree files) grow in transparent huge pages.
///
/// Why: on the virtual machines the workbench runs on, a first touch of a
/// 4 KiB page costs about 11 µs (measured: 11.5 µs a fault, against 0.26 µs
/// a page of a 2 MiB huge page). `dreamrsi replay` over 1,000 worlds touched
/// about 2,100 new heap pages, most of them for the JSON it prints, which was
/// a quarter of its CPU time. glibc can do this itself
/// (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only when the variable is
/// set before the process starts.
///
/// What it does: one malloc arena for every thread, a heap grown by
/// `reserveBytes` at once and never trimmed, and that range marked
/// MADV_HUGEPAGE. Nothing is touched, so the memory in use does not grow
/// until it is used. Call it before the command starts threads; it does
/// nothing where THP is off (`never`), under AddressSanitizer, or when the
/// heap cannot grow.
void preferHugePageHeap(std::size_t reserveBytes = std::size_t(64) << 20);

} // namespace dreamrsi
