#include "replayoutput.h"

#include "replay/replayjson.h"

#include <QJsonDocument>
#include <QSaveFile>

namespace dreamrsi {

namespace {

QString number(double x)
{
    return QString::number(x, 'g', 6);
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
            const std::string json = ReplayJson::resultToIndentedJson(result, *worldEntries);
            print(json.data(), qsizetype(json.size()));
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
                << (s.scorable ? QString() : QStringLiteral("  (not scorable: S = 0)")) << '\n';
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
        out << "\nvalue (mean over " << result.scorableWorlds << " scorable world"
            << (result.scorableWorlds == 1 ? "" : "s") << "): " << opt(result.value) << '\n';
    }
    if (!result.ok())
        err << "error: " << result.firstError() << '\n';
    out.flush();
    err.flush();
    return rc;
}

} // namespace dreamrsi
