// `dreamrsi reevaluate`: evaluates stored cells of an iteration again, R
// times each, stores every repeat beside the cell and prints each cell's
// mean, sample standard deviation and 95 % Student-t interval against its
// recorded score (docs/online.md#re-evaluating-the-best). The recorded
// scores never change.
#include "commandline.h"
#include "commands.h"

#include "loop/reevaluation/reevaluation.h"
#include "loop/round/roundsession.h"

#include "backend/evaluationbackend.h"
#include "project/reevaluationstats.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonDocument>

#include <atomic>
#include <cmath>

namespace dreamrsi {

namespace {

const char *const reevaluateUsage =
    "usage: dreamrsi reevaluate --project P.dreamrsi [--iteration ID] (--top K | --cell ID…)\n"
    "                           --repeats R [--json] [--backend local|slurm [Slurm options]]\n"
    "\n"
    "Evaluates stored cells again, R times each, each time a full sandboxed evaluation\n"
    "of the cell's stored program, and stores every repeat with the cell (its score or\n"
    "fail class, its time, where it ran). The cell's recorded score never changes and\n"
    "replay keeps using it. Per cell: the repeats, how many failed, the mean and sample\n"
    "standard deviation of the scores, and the 95 % Student-t interval of the mean\n"
    "(none with fewer than two scores). A cell whose recorded score lies above its\n"
    "interval is lucky.\n"
    "\n"
    "  --project P      the project (opened for writing: no other process may hold it)\n"
    "  --iteration ID   the iteration (default: the latest; see `dreamrsi ls P`)\n"
    "  --top K          its K best cells by recorded score\n"
    "  --cell ID        a cell to re-evaluate (b2a3); repeat it, or separate ids by commas\n"
    "  --repeats R      evaluations per cell (at least 1; 2 or more for an interval)\n"
    "  --json           {\"cells\": [{\"iteration\", \"id\", \"score\", \"repeats\": […], \"failed\",\n"
    "                   \"mean\", \"sd\", \"ci95\": [lo, hi], \"lucky\"}], \"best_by_score\",\n"
    "                   \"best_by_mean\"}; the statistics count every stored repeat\n"
    "  --backend B      where evaluations run: local (default) or slurm (one batch job each)\n"
    "  --partition P, --account A, --qos Q, --sbatch-args ARGS, --shared-dir D\n"
    "                   the Slurm backend's settings, as for `dreamrsi round`\n"
    "\n"
    "A cell whose program is missing, or whose task cannot be evaluated here (a GPU task\n"
    "on a machine without a GPU), is named with the reason on stderr and nothing is\n"
    "stored for it. Exit 0 when at least one cell was evaluated, 1 when none could be\n"
    "(or the project, the iteration or a cell is unknown), 2 bad usage.\n";

int reevaluateUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi reevaluate: " << message << "\n\n" << reevaluateUsage;
    return 2;
}

QString reevaluateNumber(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'g', 6) : QStringLiteral("–");
}

/// The table of the text output, one line per cell, then the best cells.
void printTable(QTextStream &out, const ReevaluationReport &report)
{
    out << QStringLiteral("iteration %1: %2 cell(s) re-evaluated\n").arg(report.iteration).arg(report.stats.size());
    out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
               .arg(QStringLiteral("cell"), -8)
               .arg(QStringLiteral("recorded"), 12)
               .arg(QStringLiteral("repeats"), 8)
               .arg(QStringLiteral("failed"), 7)
               .arg(QStringLiteral("mean ± 95 %"), 24)
               .arg(QStringLiteral("sd"), 10)
               .arg(QString());
    for (const ReevaluationStats &s : report.stats) {
        QString mean = reevaluateNumber(s.mean);
        if (const std::optional<double> half = s.halfWidth())
            mean += QStringLiteral(" ± ") + QString::number(*half, 'g', 3);
        out << QStringLiteral("%1 %2 %3 %4 %5 %6  %7\n")
                   .arg(s.cellId, -8)
                   .arg(reevaluateNumber(s.score), 12)
                   .arg(s.repeats.size(), 8)
                   .arg(s.failed, 7)
                   .arg(mean, 24)
                   .arg(reevaluateNumber(s.sd), 10)
                   .arg(s.lucky ? QStringLiteral("lucky: recorded score above the interval") : QString());
    }
    const ReevaluationBest best = ReevaluationBest::of(report.stats);
    if (!best.byScore.isEmpty() && best.byScore == best.byMean)
        out << "best by recorded score and by mean: " << best.byScore << '\n';
    else {
        if (!best.byScore.isEmpty())
            out << "best by recorded score: " << best.byScore << '\n';
        if (!best.byMean.isEmpty())
            out << "best by mean:           " << best.byMean << '\n';
    }
}

} // namespace

int runReevaluateCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    const QCommandLineOption projectOption = CommandLine::value("project", "P");
    const QCommandLineOption iterationOption = CommandLine::value("iteration", "ID");
    const QCommandLineOption topOption = CommandLine::value("top", "K");
    const QCommandLineOption cellOption = CommandLine::value("cell", "ID");
    const QCommandLineOption repeatsOption = CommandLine::value("repeats", "R");
    const QCommandLineOption jsonOption = CommandLine::flag("json");
    const QCommandLineOption backendOption = CommandLine::value("backend", "B");
    const QCommandLineOption partitionOption = CommandLine::value("partition", "P");
    const QCommandLineOption accountOption = CommandLine::value("account", "A");
    const QCommandLineOption qosOption = CommandLine::value("qos", "Q");
    const QCommandLineOption sbatchOption = CommandLine::value("sbatch-args", "ARGS");
    const QCommandLineOption sharedOption = CommandLine::value("shared-dir", "D");
    const QList<QCommandLineOption> slurmOptions = {partitionOption, accountOption, qosOption, sbatchOption, sharedOption};
    QList<QCommandLineOption> options = {projectOption, iterationOption, topOption, cellOption,
                                         repeatsOption, jsonOption,      backendOption};
    options += slurmOptions;
    if (const auto rc = CommandLine::parseOrAnswer(parser, options, args, reevaluateUsage, out,
                                                   [&err](const QString &m) { return reevaluateUsageError(err, m); }))
        return *rc;
    if (!parser.positionalArguments().isEmpty())
        return reevaluateUsageError(err, QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (!parser.isSet(projectOption))
        return reevaluateUsageError(err, QStringLiteral("--project is required"));
    if (!parser.isSet(repeatsOption))
        return reevaluateUsageError(err, QStringLiteral("--repeats is required"));

    ReevaluationSelection selection;
    bool ok = false;
    if (parser.isSet(iterationOption)) {
        selection.iteration = parser.value(iterationOption).toLongLong(&ok);
        if (!ok || selection.iteration < 1)
            return reevaluateUsageError(err, QStringLiteral("--iteration needs an iteration id (see `dreamrsi ls P`), got '%1'")
                                       .arg(parser.value(iterationOption)));
    }
    for (const QString &v : parser.values(cellOption)) {
        for (const QString &id : v.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            if (!selection.cellIds.contains(id.trimmed()))
                selection.cellIds.append(id.trimmed());
        }
    }
    if (parser.isSet(topOption) == !selection.cellIds.isEmpty())
        return reevaluateUsageError(err, QStringLiteral("give either --top K or --cell ID, not both and not neither"));
    if (parser.isSet(topOption)) {
        selection.top = parser.value(topOption).toInt(&ok);
        if (!ok || selection.top < 1)
            return reevaluateUsageError(err, QStringLiteral("--top must be an integer ≥ 1 (got '%1')").arg(parser.value(topOption)));
    }
    const int repeats = parser.value(repeatsOption).toInt(&ok);
    if (!ok || repeats < 1 || repeats > 10000)
        return reevaluateUsageError(err, QStringLiteral("--repeats must be an integer in [1, 10000] (got '%1')").arg(parser.value(repeatsOption)));

    std::optional<SlurmSettings> slurm;
    const QString backendName = parser.isSet(backendOption) ? parser.value(backendOption) : QStringLiteral("local");
    if (backendName == QLatin1String("slurm")) {
        SlurmSettings s;
        s.partition = parser.value(partitionOption);
        s.account = parser.value(accountOption);
        s.qos = parser.value(qosOption);
        const Result<QStringList> words = SlurmSettings::splitArguments(parser.value(sbatchOption));
        if (!words)
            return reevaluateUsageError(err, QStringLiteral("--sbatch-args: %1").arg(words.error));
        s.extraArgs = *words.value;
        s.sharedDir = parser.value(sharedOption);
        slurm = s;
    } else if (backendName == QLatin1String("local")) {
        for (const QCommandLineOption &o : slurmOptions) {
            if (parser.isSet(o))
                return reevaluateUsageError(err, QStringLiteral("--%1 needs --backend slurm").arg(o.names().first()));
        }
    } else {
        return reevaluateUsageError(err, QStringLiteral("--backend must be local or slurm, not '%1'").arg(backendName));
    }

    const QString path = parser.value(projectOption);
    if (!QFileInfo(path).isFile())
        return CommandLine::runtimeError(err, QStringLiteral("no project file '%1'").arg(path));
    const Result<std::shared_ptr<EvaluationBackend>> backend =
        RoundSession::checkedBackend(slurm, [&err](const QString &line) { err << line << '\n'; err.flush(); });
    if (!backend)
        return CommandLine::runtimeError(err, backend.error);

    ProjectStore store;
    const StoreResult<OpenReport> opened = await(store.open(path));
    if (!opened)
        return CommandLine::runtimeError(err, opened.error);
    const auto closeWith = [&store](int rc) {
        await(store.close());
        return rc;
    };
    const Result<ReevaluationPlan> plan = Reevaluation::plan(&store, selection, !slurm.has_value());
    if (!plan)
        return closeWith(CommandLine::runtimeError(err, plan.error));
    for (const ReevaluationTarget &t : plan.value->targets) {
        if (!t.skipped.isEmpty())
            err << QStringLiteral("%1 (iteration %2): not re-evaluated: %3\n").arg(t.cellId).arg(plan.value->iteration).arg(t.skipped);
    }
    if (plan.value->runnable() == 0)
        return closeWith(CommandLine::runtimeError(err, QStringLiteral("no cell could be re-evaluated")));

    const std::atomic_bool never{false};
    const bool json = parser.isSet(jsonOption);
    const Result<ReevaluationReport> report = Reevaluation::run(
        &store, *plan.value, repeats, **backend.value, never, [&err, json](int done, int total, const QString &cell) {
            if (!json) {
                err << QStringLiteral("[%1/%2] %3\n").arg(done).arg(total).arg(cell);
                err.flush();
            }
        });
    if (!report)
        return closeWith(CommandLine::runtimeError(err, report.error));
    if (json)
        out << QJsonDocument(ReevaluationJson::report(report.value->stats)).toJson(QJsonDocument::Indented);
    else
        printTable(out, *report.value);
    return closeWith(0);
}

} // namespace dreamrsi
