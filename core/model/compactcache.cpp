#include "compactcache.h"

#include <atomic>
#include <QDir>
#include <QFile>
#include <QStandardPaths>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <functional>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dreamrsi::CompactCache {

namespace {

/// Format tag and version. The version must change whenever what an entry
/// holds or means changes (the records, or how a file's facts are derived:
/// CompactTree, TreeJson's reading), so that entries of an older build are
/// never taken for this one's. ByteOrderMark tells a cache written on a
/// machine of the other byte order (the records are native).
constexpr char Magic[8] = {'D', 'R', 'S', 'I', 'C', 'W', '3', '\n'};
constexpr quint32 ByteOrderMark = 0x01020304u;

qint64 nanoseconds(const struct timespec &t)
{
    return qint64(t.tv_sec) * 1000000000 + qint64(t.tv_nsec);
}

struct Header
{
    char magic[8];
    quint32 byteOrder;
    quint32 cells;
    quint64 device;
    quint64 inode;
    qint64 size;
    qint64 mtimeNs;
    qint64 ctimeNs;
    quint32 branches;
    quint32 idChars;
    double best;
    quint32 flags;    ///< bit 0: the tree is approximate
    quint32 reserved;
    quint64 checksum; ///< of everything after the header
};

struct CellRecord
{
    double score;
    double effective;
    qint32 branch;
    qint32 attempt;
    quint8 hasScore;
    quint8 success;
    quint8 hard;
    quint8 padding[5];
};

struct BranchRecord
{
    qint32 id;
    qint32 first;
    qint32 length;
};

/// A 64-bit checksum of `size` bytes (multiply and fold a word at a time): it
/// catches a damaged entry, not an adversary (the cache is the user's own).
quint64 checksum(const char *data, size_t size)
{
    quint64 h = 0x9E3779B97F4A7C15ull ^ size;
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        quint64 w;
        std::memcpy(&w, data + i, 8);
        h = (h ^ w) * 0xFF51AFD7ED558CCDull;
        h ^= h >> 32;
    }
    quint64 tail = 0;
    std::memcpy(&tail, data + i, size - i);
    h = (h ^ tail) * 0xC4CEB9FE1A85EC53ull;
    return h ^ (h >> 29);
}

QByteArray entryPath(const QString &dir, const struct stat &info)
{
    return QFile::encodeName(dir) + '/' + QByteArray::number(quint64(info.st_dev), 16) + '-'
        + QByteArray::number(quint64(info.st_ino), 16) + ".cw";
}

bool sameFile(const Header &h, const struct stat &info)
{
    return h.device == quint64(info.st_dev) && h.inode == quint64(info.st_ino) && h.size == qint64(info.st_size)
        && h.mtimeNs == nanoseconds(info.st_mtim) && h.ctimeNs == nanoseconds(info.st_ctim);
}

} // namespace

QString directory()
{
    static const QString dir = []() -> QString {
        const QString setting = qEnvironmentVariable("DREAMRSI_WORLD_CACHE");
        if (setting == QLatin1String("0") || setting.compare(QLatin1String("off"), Qt::CaseInsensitive) == 0)
            return QString();
        QString base = qEnvironmentVariable("DREAMRSI_CACHE_DIR");
        if (base.isEmpty())
            base = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
        if (base.isEmpty())
            return QString();
        return QString(base + QStringLiteral("/worlds"));
    }();
    return dir;
}

std::optional<CompactTree> load(const struct stat &info)
{
    const QString dir = directory();
    if (dir.isEmpty())
        return std::nullopt;
    const int fd = ::open(entryPath(dir, info).constData(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return std::nullopt;
    thread_local std::vector<char> bytes;
    if (bytes.size() < 64 * 1024)
        bytes.resize(64 * 1024);
    size_t got = 0;
    for (;;) {
        const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += size_t(n);
        if (got < bytes.size())
            break; // a short read of a regular file: its end
        if (bytes.size() >= size_t(256) * 1024 * 1024)
            break;
        bytes.resize(bytes.size() * 2);
    }
    ::close(fd);

    Header h;
    if (got < sizeof h)
        return std::nullopt;
    std::memcpy(&h, bytes.data(), sizeof h);
    if (std::memcmp(h.magic, Magic, sizeof Magic) != 0 || h.byteOrder != ByteOrderMark || !sameFile(h, info))
        return std::nullopt;
    const size_t cells = h.cells, branches = h.branches, idChars = h.idChars;
    const size_t expected = sizeof h + cells * (sizeof(CellRecord) + sizeof(quint32)) + branches * sizeof(BranchRecord)
        + idChars * sizeof(char16_t);
    if (cells > 100000000 || branches > cells || idChars > 1000000000 || got != expected
        || checksum(bytes.data() + sizeof h, got - sizeof h) != h.checksum)
        return std::nullopt;

    CompactTree t;
    const char *at = bytes.data() + sizeof h;
    t.cells.resize(cells);
    double best = 0.0;
    for (CompactTree::CellFacts &f : t.cells) {
        CellRecord r;
        std::memcpy(&r, at, sizeof r);
        at += sizeof r;
        // What a reading derives from the score holds (and nothing is NaN).
        if (!std::isfinite(r.score) || r.effective != (r.hasScore && r.score > 0.0 ? r.score : 0.0))
            return std::nullopt;
        f = CompactTree::CellFacts{r.score,         r.effective,    r.branch,   r.attempt,
                                   r.hasScore != 0, r.success != 0, r.hard != 0};
        best = std::max(best, f.effective);
    }
    if (best != h.best)
        return std::nullopt;
    t.branches.resize(branches);
    int next = 0;
    for (CompactTree::Branch &b : t.branches) {
        BranchRecord r;
        std::memcpy(&r, at, sizeof r);
        at += sizeof r;
        // The branches tile the cells in order, each attempt where it belongs.
        if (r.first != next || r.length < 1 || size_t(r.first) + size_t(r.length) > cells)
            return std::nullopt;
        for (int a = 0; a < r.length; ++a) {
            const CompactTree::CellFacts &f = t.cells[size_t(r.first + a)];
            if (f.branch != r.id || f.attempt != a)
                return std::nullopt;
        }
        b = CompactTree::Branch{r.id, r.first, r.length};
        next = r.first + r.length;
    }
    if (size_t(next) != cells)
        return std::nullopt;
    t.idEnds.resize(cells);
    qsizetype previous = 0;
    for (qsizetype &end : t.idEnds) {
        quint32 e;
        std::memcpy(&e, at, sizeof e);
        at += sizeof e;
        if (e <= previous || e > idChars)
            return std::nullopt; // ids are never empty
        end = previous = qsizetype(e);
    }
    if (cells > 0 && size_t(previous) != idChars)
        return std::nullopt;
    t.ids.resize(qsizetype(idChars));
    std::memcpy(t.ids.data(), at, idChars * sizeof(char16_t));
    t.best = h.best;
    t.approximate = (h.flags & 1u) != 0;
    return t;
}

namespace {
std::atomic<qint64> clockOffset{0};
} // namespace

qint64 now()
{
    struct timespec t;
    if (::clock_gettime(CLOCK_REALTIME, &t) != 0)
        return 0;
    return nanoseconds(t) + clockOffset.load(std::memory_order_relaxed);
}

void setClockOffset(qint64 nanoseconds)
{
    clockOffset.store(nanoseconds, std::memory_order_relaxed);
}

void store(const struct stat &info, const CompactTree &tree)
{
    const QString dir = directory();
    if (dir.isEmpty() || now() - nanoseconds(info.st_ctim) < qint64(SettleSeconds) * 1000000000)
        return;
    const size_t cells = tree.cells.size();
    std::vector<char> bytes(sizeof(Header) + cells * (sizeof(CellRecord) + sizeof(quint32))
                            + tree.branches.size() * sizeof(BranchRecord) + size_t(tree.ids.size()) * sizeof(char16_t));
    char *at = bytes.data() + sizeof(Header);
    for (const CompactTree::CellFacts &f : tree.cells) {
        CellRecord r{};
        r.score = f.score;
        r.effective = f.effective;
        r.branch = f.branch;
        r.attempt = f.attempt;
        r.hasScore = f.hasScore;
        r.success = f.success;
        r.hard = f.hard;
        std::memcpy(at, &r, sizeof r);
        at += sizeof r;
    }
    for (const CompactTree::Branch &b : tree.branches) {
        const BranchRecord r{b.id, b.first, b.length};
        std::memcpy(at, &r, sizeof r);
        at += sizeof r;
    }
    for (const qsizetype end : tree.idEnds) {
        const quint32 e = quint32(end);
        std::memcpy(at, &e, sizeof e);
        at += sizeof e;
    }
    std::memcpy(at, tree.ids.constData(), size_t(tree.ids.size()) * sizeof(char16_t));

    Header h{};
    std::memcpy(h.magic, Magic, sizeof Magic);
    h.byteOrder = ByteOrderMark;
    h.cells = quint32(cells);
    h.device = quint64(info.st_dev);
    h.inode = quint64(info.st_ino);
    h.size = qint64(info.st_size);
    h.mtimeNs = nanoseconds(info.st_mtim);
    h.ctimeNs = nanoseconds(info.st_ctim);
    h.branches = quint32(tree.branches.size());
    h.idChars = quint32(tree.ids.size());
    h.best = tree.best;
    h.flags = tree.approximate ? 1u : 0u;
    h.checksum = checksum(bytes.data() + sizeof h, bytes.size() - sizeof h);
    std::memcpy(bytes.data(), &h, sizeof h);

    // Written beside and renamed over, so a reader sees a whole entry or none.
    static const bool made = QDir().mkpath(dir);
    if (!made)
        return;
    const QByteArray path = entryPath(dir, info);
    const QByteArray temporary = path + '.' + QByteArray::number(qint64(::getpid())) + '.'
        + QByteArray::number(quint64(std::hash<std::thread::id>{}(std::this_thread::get_id())), 16);
    const int fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        written += size_t(n);
    }
    const bool ok = ::close(fd) == 0 && written == bytes.size();
    if (!ok || ::rename(temporary.constData(), path.constData()) != 0)
        ::unlink(temporary.constData());
}

} // namespace dreamrsi::CompactCache
