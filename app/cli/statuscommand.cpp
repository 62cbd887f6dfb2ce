// `dreamrsi status`: whether a project's rounds are alive (docs/online.md#is-it-alive),
// read from another process: the project read-only, the running round's
// published attempts and the project's lock.
#include "commands.h"

#include "commandline.h"

#include "loop/round/roundliveness.h"
#include "remote/remoteapi.h"
#include "remote/remoteclient.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

const char *const statusUsage =
    "usage: dreamrsi status P.dreamrsi [--json]\n"
    "       dreamrsi status http://HOST:PORT/ --token-file F [--json]   a project `dreamrsi serve` serves\n"
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
    "  --token-file F  the token of the server at the URL (docs/remote.md)\n"
    "\n"
    "Exit 0, 1 when the project cannot be read (or the server refuses), 2 bad usage.\n";

int statusUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi status: " << message << "\n\n" << statusUsage;
    return 2;
}

/// The text form, from the JSON form (`--json`'s, or a server's /api/v1/status).
void printText(QTextStream &out, const QJsonObject &status)
{
    const QJsonArray iterations = status.value(QStringLiteral("iterations")).toArray();
    if (iterations.isEmpty())
        out << "no iteration yet\n";
    for (const QJsonValue &v : iterations) {
        const QJsonObject it = v.toObject();
        const QString state = it.value(QStringLiteral("state")).toString();
        out << "iteration " << it.value(QStringLiteral("iteration")).toInteger() << ": " << state;
        if (const QString stopped = it.value(QStringLiteral("status")).toString(); !stopped.isEmpty())
            out << " (" << stopped << ")";
        const QDateTime last = QDateTime::fromString(it.value(QStringLiteral("last_cell_at")).toString(), Qt::ISODateWithMs);
        out << ", last cell " << (last.isValid() ? last.toUTC().toString(Qt::ISODate) : QStringLiteral("none yet"));
        if (state == QLatin1String("live") || state == QLatin1String("stalled"))
            out << ", stalled after " << QString::number(it.value(QStringLiteral("threshold_s")).toDouble(), 'g', 4)
                << " s without a cell";
        out << '\n';
        if (const QString why = it.value(QStringLiteral("why")).toString(); !why.isEmpty())
            out << "  " << why << '\n';
        for (const QJsonValue &av : it.value(QStringLiteral("attempts")).toArray()) {
            const QJsonObject a = av.toObject();
            out << "  " << a.value(QStringLiteral("id")).toString().leftJustified(8) << ' '
                << a.value(QStringLiteral("phase")).toString().leftJustified(10) << ' '
                << QString::number(qRound(a.value(QStringLiteral("age_s")).toDouble())).rightJustified(6) << " s";
            if (a.value(QStringLiteral("stalled")).toBool())
                out << "  STALLED: " << a.value(QStringLiteral("why")).toString();
            out << '\n';
        }
    }
}

} // namespace

int runStatusCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption tokenFile(QStringLiteral("token-file"), {}, QStringLiteral("F"));
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {json, tokenFile}, args, QString::fromLatin1(statusUsage), out,
            [&](const CommandLine::Problem &problem) { return statusUsageError(err, problem.message); }))
        return *answered;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() != 1)
        return statusUsageError(err, positional.isEmpty() ? QStringLiteral("the project is missing")
                                                    : QStringLiteral("one project, not %1").arg(positional.size()));
    QJsonObject status;
    if (RemoteClient::isUrl(positional.first())) {
        const Result<RemoteProject> remote = RemoteClient::open(positional.first(), parser.value(tokenFile));
        if (!remote)
            return statusUsageError(err, remote.error);
        const Result<QJsonObject> answer = RemoteClient::getJson(*remote.value, QStringLiteral("/api/v1/status"));
        if (!answer) {
            err << "dreamrsi status: " << answer.error << '\n';
            return 1;
        }
        status = *answer.value;
    } else {
        if (parser.isSet(tokenFile))
            return statusUsageError(err, QStringLiteral("--token-file goes with a server's URL, not a project file"));
        const Result<QList<IterationLiveness>> local = RoundLiveness::status(positional.first());
        if (!local.ok()) {
            err << "dreamrsi status: " << local.error << '\n';
            return 1;
        }
        status = RemoteApi::status(*local.value);
    }
    if (parser.isSet(json)) {
        out << QString::fromUtf8(QJsonDocument(status).toJson(QJsonDocument::Indented));
        return 0;
    }
    printText(out, status);
    return 0;
}

} // namespace dreamrsi
