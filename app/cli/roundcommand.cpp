#include "roundcommand.h"
#include "commandline.h"
#include "roundcommandline.h"

#include "loop/round/roundpreflight.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFuture>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <mutex>

namespace dreamrsi {

namespace {

QString roundUsage()
{
    return QStringLiteral(
               "usage: dreamrsi round --project P.dreamrsi --task NAME --agent builtin|openai|anthropic|gemini|command\n"
               "                      [--model M] [--base-url URL] [--command CMD] [--workers W] [--rounds K1]\n"
               "                      [--policy VERSION|builtin:NAME] [--beta B] [--seed S]\n"
               "                      [--max-calls N] [--max-usd X] [--resume ITERATION] [--json]\n"
               "                      [--backend local|slurm] [--partition P] [--account A] [--qos Q]\n"
               "                      [--sbatch-args \"ARGS\"] [--shared-dir D] [--accept-steering]\n"
               "                      [--agent-time-limit S] [--probe auto|early|off|N] [--preflight]\n"
               "\n"
               "Runs one live round (docs/online.md#a-live-round) in the project (created when it does not exist):\n"
               "the policy plans the grid and picks a batch each round; every id is one attempt\n"
               "(agent, then the sandboxed evaluator) on W workers, stored the moment it finishes.\n"
               "\n")
           + RoundCommandLine::help(RoundCommandLine::Command::Round)
           + QStringLiteral(
               "  --json           print {iteration, status, cells, rounds, best_score, calls,\n"
               "                   tokens_in, tokens_out, usd, grid} on stdout at the end\n"
               "  --preflight      check everything the round needs and estimate its cost, then exit\n"
               "                   without a round (docs/online.md#before-a-round-preflight-and-cost):\n"
               "                   the project (writable, no other writer), the agent (its key, a\n"
               "                   request that costs no tokens; a command's executable and --version),\n"
               "                   the backend, the evaluator on the initial program; then calls, USD\n"
               "                   and time as p10-p90 over the project's replay worlds. With --json:\n"
               "                   {ok, checks: [{name, ok, detail}], estimate: {calls, usd, seconds}}.\n"
               "                   Exit 1 when a check failed (each named on stderr)\n"
               "\n"
               "Progress goes to stderr. SIGINT/SIGTERM stop the round cleanly (status stopped, exit 0);\n"
               "a second one kills the running attempts. API keys come from the environment\n"
               "(OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) and are never passed to children\n"
               "but a command preset's own.\n"
               "When every attempt of the first round fails for an environment reason (env: the\n"
               "evaluator's runtime is missing, no GPU for a CUDA task, the cluster refuses the job),\n"
               "the round stops there with the cause (status stopped, exit 1); later env failures are\n"
               "cells like any other.\n"
               "Exit 0 finished or stopped, 1 an error stopped it, 2 bad usage.\n");
}

std::atomic_int g_signals{0};

extern "C" void onStopSignal(int)
{
    g_signals.fetch_add(1);
}

int roundUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi round: " << message << "\n\n" << roundUsage();
    return 2;
}

} // namespace

int runRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    RoundCommandLine::add(parser, RoundCommandLine::Command::Round);
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption preflight(QStringLiteral("preflight"), {});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {json, preflight}, args, [] { return roundUsage(); }, out,
            [&](const CommandLine::Problem &problem) { return roundUsageError(err, problem.message); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return roundUsageError(err, QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    const Result<RoundOptions> read = RoundCommandLine::read(parser, RoundCommandLine::Command::Round);
    if (!read)
        return roundUsageError(err, read.error);
    const RoundOptions &options = *read.value;
    if (parser.isSet(preflight)) {
        // Nothing is created or written: checks and an estimate only.
        const PreflightReport report = RoundPreflight::run(options, parser.value(QStringLiteral("project")),
                                                           [&err](const QString &line) {
                                                               err << line << '\n';
                                                               err.flush();
                                                           });
        if (parser.isSet(json))
            out << QString::fromUtf8(QJsonDocument(report.toJson()).toJson(QJsonDocument::Indented));
        else
            out << report.toText();
        if (!report.ok()) {
            for (const PreflightCheck &c : report.checks) {
                if (!c.ok)
                    err << "preflight: " << c.name << " failed: " << c.detail << '\n';
            }
            return 1;
        }
        return 0;
    }

    std::mutex errMutex;
    const auto logLine = [&err, &errMutex](const QString &line) {
        std::lock_guard lock(errMutex);
        err << line << '\n';
        err.flush();
    };
    // Checked before the project or the agent is touched: a missing
    // partition costs nothing (the runner checks again when it starts).
    const Result<std::shared_ptr<EvaluationBackend>> backend = RoundSession::checkedBackend(options.slurm, logLine);
    if (!backend.ok()) {
        err << "error: " << backend.error << '\n';
        return 1;
    }

    // The project: opened, or created when it does not exist.
    ProjectStore store;
    const QString path = parser.value(QStringLiteral("project"));
    bool created = false;
    const StoreResult<OpenReport> opened = RoundSession::openOrCreate(store, path, options.round.task, &created);
    if (created)
        err << "created project " << path << '\n';
    if (!opened.ok()) {
        err << "error: " << opened.error << '\n';
        return 1;
    }
    // The agent, for a resume the iteration's own task: the same way as the workbench.
    const Result<PreparedRound> prepared = await(RoundSession::prepare(&store, options, {}, {nullptr, *backend.value}));
    if (!prepared.ok()) {
        err << "error: " << prepared.error << '\n';
        return 1;
    }

    RoundRunner runner(&store, prepared.value->config, prepared.value->agent, prepared.value->backend);
    QObject::connect(&runner, &RoundRunner::logLine, &runner, logLine, Qt::DirectConnection);
    QEventLoop loop;
    QObject::connect(&runner, &RoundRunner::finished, &loop, &QEventLoop::quit, Qt::QueuedConnection);

    g_signals.store(0);
    struct sigaction action = {};
    struct sigaction oldInt = {};
    struct sigaction oldTerm = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &oldInt);
    sigaction(SIGTERM, &action, &oldTerm);
    int handled = 0;
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &runner, [&] {
        for (const int seen = g_signals.load(); handled < seen; ++handled) {
            {
                std::lock_guard lock(errMutex);
                err << (handled == 0 ? "stop requested: running attempts finish, then the round stops "
                                       "(again to kill them)\n"
                                     : "second stop: killing the running attempts\n");
                err.flush();
            }
            runner.stop(handled == 0 ? RoundRunner::StopMode::Finish : RoundRunner::StopMode::Kill);
        }
    });
    poll.start();
    runner.start();
    if (runner.isRunning())
        loop.exec();
    runner.wait();
    poll.stop();
    sigaction(SIGINT, &oldInt, nullptr);
    sigaction(SIGTERM, &oldTerm, nullptr);

    const RoundSummary summary = runner.summary();
    await(store.close());
    if (summary.iteration == 0 && !summary.ok()) {
        // Refused before an iteration began (an unknown version, a finished
        // iteration to resume): no round to summarise, only the error.
    } else if (parser.isSet(json)) {
        QJsonObject o = summary.toJson();
        if (!summary.ok())
            o.insert(QStringLiteral("error"), summary.error);
        out << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        out << "iteration " << summary.iteration << ": " << iterationStatusName(summary.status) << ", "
            << summary.counters.cells << (summary.counters.cells == 1 ? " cell in " : " cells in ") << summary.counters.rounds
            << (summary.counters.rounds == 1 ? " round" : " rounds") << ", best score "
            << (summary.counters.bestScore ? QString::number(*summary.counters.bestScore, 'g', 10) : QStringLiteral("none"))
            << ", " << summary.counters.calls << " calls, " << summary.counters.tokensIn << "+"
            << summary.counters.tokensOut << " tokens, " << summary.counters.usd << " USD\n";
    }
    if (!summary.ok()) {
        err << "error: " << summary.error << '\n';
        return 1;
    }
    return 0;
}

} // namespace dreamrsi
