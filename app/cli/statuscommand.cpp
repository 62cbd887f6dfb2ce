// `dreamrsi status`: whether a project's rounds are alive (docs/online.md#is-it-alive),
// read from another process: the project read-only, the running round's
// published attempts and the project's lock.
#include "commands.h"

#include "commandline.h"

#include "loop/round/roundliveness.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

const char *const statusUsage =
    "usage: dreamrsi status P.dreamrsi [--json]\n"
    "\n"
    "Says whether the project's rounds are alive: every running or interrupted\n"
    "iteration and the newest one, each live, stalled, interrupted or finished, with the\n"
    "attempts in flight (their age and phase: agent, evaluation, queued on Slurm) and\n"
    "when the last cell was stored. It only reads: a round may run in the project.\n"
    "\n"
    "Stalled: an attempt in its phase longer than its limit (the agent's wall-clock\n"
    "limit; a task folder's evaluation time limit + 10 s), or no cell stored for longer\n"
    "than max(5 x the iteration's median attempt time, 60 s) while attempts run.\n"
    "Kill a stalled attempt with `dreamrsi steer --project P kill ATTEMPT`.\n"
    "\n"
    "  --json   {\"iterations\": [{\"iteration\", \"state\", \"last_cell_at\",\n"
    "            \"attempts\": [{\"id\", \"phase\", \"age_s\", \"stalled\"}]}]}\n"
    "\n"
    "Exit 0, 1 when the project cannot be read, 2 bad usage.\n";

int usageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi status: " << message << "\n\n" << statusUsage;
    return 2;
}

} // namespace

int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), {});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {json}, args, QString::fromLatin1(statusUsage), out,
            [&](const CommandLine::Problem &problem) { return usageError(err, problem.message); }))
        return *answered;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return usageError(err, positional.isEmpty() ? QStringLiteral("the project is missing")
                                                    : QStringLiteral("one project, not %1").arg(positional.size()));
    const Result<QList<IterationLiveness>> status = RoundLiveness::status(positional.first());
    if (!status.ok()) {
        err << "dreamrsi status: " << status.error << '\n';
        return 1;
    }
    if (parser.isSet(json)) {
        QJsonArray list;
        for (const IterationLiveness &it : *status.value)
            list.append(it.toJson());
        out << QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("iterations"), list}}).toJson(QJsonDocument::Indented));
        return 0;
    }
    if (status.value->isEmpty())
        out << "no iteration yet\n";
    for (const IterationLiveness &it : *status.value) {
        out << "iteration " << it.iteration << ": " << it.state;
        if (!it.stopped.isEmpty())
            out << " (" << it.stopped << ")";
        out << ", last cell "
            << (it.lastCellAt.isValid() ? it.lastCellAt.toString(Qt::ISODate) : QStringLiteral("none yet"));
        if (it.state == QLatin1String("live") || it.state == QLatin1String("stalled"))
            out << ", stalled after " << QString::number(it.thresholdS, 'g', 4) << " s without a cell";
        out << '\n';
        if (!it.why.isEmpty())
            out << "  " << it.why << '\n';
        for (const AttemptLiveness &a : it.attempts) {
            out << "  " << a.id.leftJustified(8) << ' ' << a.phase.leftJustified(10) << ' '
                << QString::number(qRound(a.ageS)).rightJustified(6) << " s";
            if (a.stalled)
                out << "  STALLED: " << a.why;
            out << '\n';
        }
    }
    return 0;
}

} // namespace dreamrsi
