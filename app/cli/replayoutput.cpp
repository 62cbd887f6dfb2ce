#include "replayoutput.h"

#include "replay/replayjson.h"

#include <QFileDevice>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <vector>

#include <sys/uio.h>

namespace dreamrsi {

namespace {

QString number(double x)
{
    return QString::number(x, 'g', 6);
}

/// Writes `pieces` to the file descriptor `fd` in order, with as few system
/// calls as writev allows (a pipe may take part of them at a time). False,
/// with errno set, when the file refuses them.
bool writeAll(int fd, std::vector<iovec> pieces)
{
    size_t next = 0;
    while (next < pieces.size()) {
        const int count = int(std::min<size_t>(pieces.size() - next, IOV_MAX));
        const ssize_t written = ::writev(fd, pieces.data() + next, count);
        if (written < 0) {
            if (errno == EINTR)
                continue;
            return false;
        }
        size_t left = size_t(written);
        while (next < pieces.size() && left >= pieces[next].iov_len) {
            left -= pieces[next].iov_len;
            ++next;
        }
        if (left > 0) {
            pieces[next].iov_base = static_cast<char *>(pieces[next].iov_base) + left;
            pieces[next].iov_len -= left;
        }
    }
    return true;
}

} // namespace

int printReplayResult(const ReplayResult &result, const ReplayPrinting &printing, QTextStream &out, QTextStream &err,
                      const QList<QByteArray> *worldEntries)
{
    int rc = result.ok() ? 0 : 1;
    if (!printing.tracePath.isEmpty()) {
        QSaveFile file(printing.tracePath);
        if (!file.open(QIODevice::WriteOnly) || file.write(ReplayJson::traceLines(result)) < 0 || !file.commit()) {
            err << "error: cannot write trace file '" << printing.tracePath << "': " << file.errorString() << '\n';
            rc = 1;
        }
    }
    if (printing.json) {
        // Straight to the file when the stream has one (stdout): tens of MB
        // need not go through a QString and back.
        const auto print = [&out](const char *data, qsizetype size) {
            if (QIODevice *device = out.device()) {
                out.flush();
                device->write(data, size);
            } else {
                out << QString::fromUtf8(data, size);
            }
        };
        if (worldEntries) {
            // The worlds' entries go out from where they are, between the
            // pieces of the rest of the document: no copy of them all.
            const ReplayJson::IndentedFrame frame = ReplayJson::resultToIndentedFrame(result);
            std::vector<iovec> pieces;
            for (const std::string_view piece : frame.pieces(*worldEntries)) {
                if (!piece.empty())
                    pieces.push_back(iovec{const_cast<char *>(piece.data()), piece.size()});
            }
            auto *file = qobject_cast<QFileDevice *>(out.device());
            if (file && file->handle() >= 0) {
                out.flush();
                file->flush();
                if (!writeAll(file->handle(), std::move(pieces))) {
                    err << "error: cannot write the replay's JSON: " << QString::fromLocal8Bit(std::strerror(errno)) << '\n';
                    rc = 1;
                }
            } else {
                for (const iovec &piece : pieces)
                    print(static_cast<const char *>(piece.iov_base), qsizetype(piece.iov_len));
            }
        } else {
            const QByteArray json = ReplayJson::resultToIndentedJson(result);
            print(json.constData(), json.size());
        }
    } else {
        out << "policy " << result.policy << "   lambda " << number(result.lambda) << "   workers " << result.workers
            << "   betas";
        for (const double b : result.betas)
            out << ' ' << number(b);
        if (result.maxRounds)
            out << "   rounds ≤ " << *result.maxRounds;
        out << "\n\n";
        out << QStringLiteral("world").leftJustified(32) << QStringLiteral("cells").rightJustified(7)
            << QStringLiteral("S").rightJustified(11) << QStringLiteral("hypervol").rightJustified(11)
            << QStringLiteral("penalty").rightJustified(11) << QStringLiteral("value").rightJustified(11) << '\n';
        auto opt = [](const std::optional<double> &v) { return v ? number(*v) : QStringLiteral("-"); };
        for (const SweepResult &s : result.worlds) {
            out << s.world.leftJustified(32) << QString::number(s.cells).rightJustified(7)
                << number(s.best).rightJustified(11) << opt(s.hypervolume).rightJustified(11)
                << opt(s.penalty).rightJustified(11) << opt(s.value).rightJustified(11)
                << (s.scorable ? QString() : QStringLiteral("  (not scorable: S = 0)"))
                << (s.approximate ? QStringLiteral("  (approximate world)") : QString()) << '\n';
            for (const EpisodeResult &e : s.episodes) {
                out << "    beta " << number(e.beta).leftJustified(6) << " calls " << QString::number(e.calls).rightJustified(5)
                    << "  rounds " << QString::number(e.rounds).rightJustified(4) << "  best "
                    << number(e.best).rightJustified(10) << "  attainment "
                    << (s.scorable ? number(e.attainment) : QStringLiteral("-"));
                if (!e.ok())
                    out << "  ERROR " << e.error;
                out << '\n';
            }
        }
        const qsizetype approximateWorlds =
            std::count_if(result.worlds.cbegin(), result.worlds.cend(), [](const SweepResult &s) { return s.approximate; });
        out << "\nvalue (mean over " << result.scorableWorlds << " scorable world"
            << (result.scorableWorlds == 1 ? "" : "s") << "): " << opt(result.value);
        if (approximateWorlds > 0)
            out << "  (over " << approximateWorlds << " approximate world" << (approximateWorlds == 1 ? "" : "s") << ')';
        out << '\n';
    }
    if (!result.ok())
        err << "error: " << result.firstError() << '\n';
    out.flush();
    err.flush();
    return rc;
}

} // namespace dreamrsi
