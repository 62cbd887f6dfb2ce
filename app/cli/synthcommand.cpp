// `dreamrsi synth`: synthetic worlds (SynthWorld) written as tree files.
#include "commands.h"

#include "commandline.h"

#include "model/treejson.h"
#include "replay/synthworld.h"

#include <QDir>

namespace dreamrsi {

namespace {

const char *const synthUsage =
    "usage: dreamrsi synth --out DIR --worlds N --seed S [--width 10] [--depth 11]\n"
    "                      [--fail-rate 0.2] [--regime steady|plateau|needle|noisy|directions|late|flat|deep]\n"
    "                      [--workers 10]\n"
    "Writes N synthetic worlds DIR/synth-REGIME-SEED-I.json (seeds S, S+1, ...).\n"
    "directions, late, flat and deep are the counterfactual loop's study regimes: a few directions carry\n"
    "the task; gains arrive late (from attempt 3 to 5); nothing improves after a branch's first attempt;\n"
    "gains arrive only from attempt 4 to 6 on.\n";

int synthUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi synth: " << message << '\n' << synthUsage;
    return 2;
}

} // namespace

int runSynthCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    using CommandLine::value;
    const QList<QCommandLineOption> options{value("out", "DIR"),   value("worlds", "N"),    value("seed", "S"),
                                            value("width", "W"),   value("depth", "D"),     value("fail-rate", "F"),
                                            value("regime", "NAME"), value("workers", "W")};
    QCommandLineParser parser;
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, options, args, synthUsage, out, [&err](const CommandLine::Problem &problem) {
                if (problem.kind == CommandLine::Problem::Kind::MissingValue)
                    return synthUsageError(err, QStringLiteral("bad value for %1: ''").arg(problem.argument));
                return synthUsageError(err, QStringLiteral("unknown argument '%1'").arg(problem.argument));
            }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return synthUsageError(err, QStringLiteral("unknown argument '%1'").arg(parser.positionalArguments().constFirst()));

    SynthParams params;
    QString outDir;
    int count = 0;
    bool haveSeed = false;
    for (const CommandLine::Given &o : CommandLine::inOrder(parser, options)) {
        const QString &v = o.value;
        bool ok = true;
        if (o.name == QLatin1String("out")) {
            outDir = v;
        } else if (o.name == QLatin1String("worlds")) {
            count = v.toInt(&ok);
            ok = ok && count >= 1;
        } else if (o.name == QLatin1String("seed")) {
            params.seed = v.toULongLong(&ok);
            haveSeed = ok;
        } else if (o.name == QLatin1String("width")) {
            params.width = v.toInt(&ok);
        } else if (o.name == QLatin1String("depth")) {
            params.depth = v.toInt(&ok);
        } else if (o.name == QLatin1String("fail-rate")) {
            params.failRate = v.toDouble(&ok);
        } else if (o.name == QLatin1String("regime")) {
            params.regime = v;
        } else if (o.name == QLatin1String("workers")) {
            params.maxParallelism = v.toInt(&ok);
        }
        if (!ok || v.isEmpty())
            return synthUsageError(err, QStringLiteral("bad value for --%1: '%2'").arg(o.typed, v));
    }
    if (outDir.isEmpty() || count < 1 || !haveSeed)
        return synthUsageError(err, QStringLiteral("--out, --worlds and --seed are required"));
    if (const QString why = SynthWorld::validate(params); !why.isEmpty()) {
        err << "dreamrsi synth: " << why << '\n';
        return 2;
    }
    if (!QDir().mkpath(outDir)) {
        err << "error: cannot create folder '" << outDir << "'\n";
        return 1;
    }
    const quint64 firstSeed = params.seed;
    for (int i = 0; i < count; ++i) {
        params.seed = firstSeed + quint64(i);
        const DiscoveryTree tree = SynthWorld::generate(params);
        const QString path = QDir(outDir).filePath(
            QStringLiteral("synth-%1-%2-%3.json").arg(params.regime).arg(firstSeed).arg(i, 4, 10, QLatin1Char('0')));
        if (const Result<Done> written = TreeJson::writeFile(tree, path); !written) {
            err << "error: " << written.error << '\n';
            return 1;
        }
        out << path << ": " << tree.cellCount() << " cells, S = " << QString::number(tree.bestEffectiveScore(), 'g', 6)
            << '\n';
    }
    out.flush();
    return 0;
}

} // namespace dreamrsi
