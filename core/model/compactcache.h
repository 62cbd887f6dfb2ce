#pragma once

#include "compacttree.h"

#include <QString>

#include <optional>

struct stat;

namespace dreamrsi {

/// A cache of tree files in compact form, so that replaying built-in
/// policies over the same worlds again (comparing policies over a corpus)
/// neither reads nor parses their JSON.
///
/// An entry is keyed by the file's identity and change times (device,
/// inode, size, mtime and ctime, to the nanosecond) and holds the compact
/// form of a file that was read and checked in full. Any write to a file
/// changes its ctime, which no program can set back, so a changed file never
/// matches its old entry. To rule out a change within the clock's tick of a
/// file's own ctime, a file is cached only once its ctime is SettleSeconds
/// old. Entries carry a checksum; a damaged or foreign entry is ignored and
/// rewritten. One entry per file identity, so the cache grows with the
/// number of distinct files replayed, a few KB each.
///
/// Location: $DREAMRSI_CACHE_DIR/worlds, else the user's cache folder
/// (QStandardPaths::CacheLocation)/worlds. DREAMRSI_WORLD_CACHE=0 turns it
/// off for a process; `dreamrsi replay --no-cache` for a run.
namespace CompactCache {

inline constexpr int SettleSeconds = 2;

/// The clock the settle age is measured with: nanoseconds of
/// CLOCK_REALTIME, the clock of a file's ctime. Tests move it forward
/// (setClockOffset) rather than sleep through the settle age.
qint64 now();
/// Adds `nanoseconds` to now() for this process (tests only; 0 by default).
void setClockOffset(qint64 nanoseconds);

/// The cache folder; empty when caching is off (DREAMRSI_WORLD_CACHE=0).
QString directory();

/// The entry of the file with status `info`, when there is a valid one.
std::optional<CompactTree> load(const struct stat &info);
/// Stores `tree` as the entry of the file with status `info` (read before
/// its bytes were), when the file has settled; failures are silent (a cache
/// that cannot be written is no cache).
void store(const struct stat &info, const CompactTree &tree);

} // namespace CompactCache

} // namespace dreamrsi
