#include "roundcommand.h"
#include "commandline.h"

#include "optionvalues.h"

#include "agent/agentfactory.h"
#include "eval/taskregistry.h"
#include "loop/round/roundrunner.h"
#include "loop/round/roundsession.h"
#include "backend/slurmsettings.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCommandLineParser>
#include <QEventLoop>
#include <QFileInfo>
#include <QFuture>
#include <QJsonDocument>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <mutex>
#include <limits>

namespace dreamrsi {

namespace {

const char *const roundUsage =
    "usage: dreamrsi round --project P.dreamrsi --task NAME --agent builtin|openai|anthropic|gemini|command\n"
    "                      [--model M] [--base-url URL] [--command CMD] [--workers W] [--rounds K1]\n"
    "                      [--policy VERSION|builtin:NAME] [--beta B] [--seed S]\n"
    "                      [--max-calls N] [--max-usd X] [--resume ITERATION] [--json]\n"
    "                      [--backend local|slurm] [--partition P] [--account A] [--qos Q]\n"
    "                      [--sbatch-args \"ARGS\"] [--shared-dir D] [--accept-steering]\n"
    "\n"
    "Runs one live round (docs/online.md#a-live-round) in the project (created when it does not exist):\n"
    "the policy plans the grid and picks a batch each round; every id is one attempt\n"
    "(agent, then the sandboxed evaluator) on W workers, stored the moment it finishes.\n"
    "\n"
    "  --project P      project file (.dreamrsi); created when missing\n"
    "  --task NAME      built-in task (see `dreamrsi tasks`) or a task folder;\n"
    "                   with --resume, the iteration's own task when omitted\n"
    "  --agent KIND     builtin, openai, anthropic, gemini or command\n"
    "  --model M        provider model (default: the provider's)\n"
    "  --base-url URL   provider endpoint (default: the public one)\n"
    "  --command CMD    the command of --agent command (run with /bin/sh -c), or preset:NAME\n"
    "                   (claude-code, codex, gemini-cli, aider: that tool's command, with its\n"
    "                   key and base-URL variable let through to it)\n"
    "  --workers W      attempts at once, the largest batch (default 4; on resume the\n"
    "                   iteration's own)\n"
    "  --rounds K1      round limit (default: until an empty batch or no legal cell)\n"
    "  --policy P       stored version name or id, or builtin:NAME (default: the latest\n"
    "                   approved version, else builtin:portfolio)\n"
    "  --beta B         budget preference in [0, 1] (default: the policy's defaultBeta, else 0.5)\n"
    "  --seed S         seed of the agent and the policy's Math.random (default 0)\n"
    "  --max-calls N    stop at N agent calls (the last batch is cut to fit)\n"
    "  --max-usd X      stop once the cost reaches X USD\n"
    "  --resume ID      continue the interrupted or stopped iteration ID\n"
    "  --backend B      where evaluations run: local (default) or slurm (one batch job each)\n"
    "  --partition P    Slurm partition (default: the cluster's default partition)\n"
    "  --account A      Slurm account;  --qos Q  Slurm quality of service\n"
    "  --sbatch-args S  extra sbatch arguments, split like a shell (quotes kept together)\n"
    "  --shared-dir D   work directory every node sees (default ~/.cache/dreamrsi/slurm)\n"
    "  --accept-steering  let `dreamrsi steer` close, refine, hint, pause and continue the\n"
    "                   round between batches (requests through the project's inbox)\n"
    "  --json           print {iteration, status, cells, rounds, best_score, calls,\n"
    "                   tokens_in, tokens_out, usd, grid} on stdout at the end\n"
    "\n"
    "Progress goes to stderr. SIGINT/SIGTERM stop the round cleanly (status stopped, exit 0);\n"
    "a second one kills the running attempts. API keys come from the environment\n"
    "(OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY) and are never passed to children\n"
    "but a command preset's own.\n"
    "When every attempt of the first round fails for an environment reason (env: the\n"
    "evaluator's runtime is missing, no GPU for a CUDA task, the cluster refuses the job),\n"
    "the round stops there with the cause (status stopped, exit 1); later env failures are\n"
    "cells like any other.\n"
    "Exit 0 finished or stopped, 1 an error stopped it, 2 bad usage.\n";

std::atomic_int g_signals{0};

extern "C" void onStopSignal(int)
{
    g_signals.fetch_add(1);
}

int usageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi round: " << message << "\n\n" << roundUsage;
    return 2;
}

} // namespace

int runRoundCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    const QCommandLineOption project(QStringLiteral("project"), {}, QStringLiteral("P"));
    const QCommandLineOption task(QStringLiteral("task"), {}, QStringLiteral("NAME"));
    const QCommandLineOption agent(QStringLiteral("agent"), {}, QStringLiteral("KIND"));
    const QCommandLineOption model(QStringLiteral("model"), {}, QStringLiteral("M"));
    const QCommandLineOption baseUrl(QStringLiteral("base-url"), {}, QStringLiteral("URL"));
    const QCommandLineOption command(QStringLiteral("command"), {}, QStringLiteral("CMD"));
    const QCommandLineOption workers(QStringLiteral("workers"), {}, QStringLiteral("W"));
    const QCommandLineOption rounds(QStringLiteral("rounds"), {}, QStringLiteral("K1"));
    const QCommandLineOption policy(QStringLiteral("policy"), {}, QStringLiteral("P"));
    const QCommandLineOption beta(QStringLiteral("beta"), {}, QStringLiteral("B"));
    const QCommandLineOption seed(QStringLiteral("seed"), {}, QStringLiteral("S"));
    const QCommandLineOption maxCalls(QStringLiteral("max-calls"), {}, QStringLiteral("N"));
    const QCommandLineOption maxUsd(QStringLiteral("max-usd"), {}, QStringLiteral("X"));
    const QCommandLineOption resume(QStringLiteral("resume"), {}, QStringLiteral("ITERATION"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    const QCommandLineOption backendOption(QStringLiteral("backend"), {}, QStringLiteral("B"));
    const QCommandLineOption partition(QStringLiteral("partition"), {}, QStringLiteral("P"));
    const QCommandLineOption account(QStringLiteral("account"), {}, QStringLiteral("A"));
    const QCommandLineOption qos(QStringLiteral("qos"), {}, QStringLiteral("Q"));
    const QCommandLineOption sbatchArgs(QStringLiteral("sbatch-args"), {}, QStringLiteral("ARGS"));
    const QCommandLineOption sharedDir(QStringLiteral("shared-dir"), {}, QStringLiteral("D"));
    const QCommandLineOption acceptSteering(QStringLiteral("accept-steering"), {});
    parser.addOptions({project, task,       agent,     model,         baseUrl,   command,
                       workers, rounds,     policy,    beta,          seed,      maxCalls,
                       maxUsd,  resume,     json,      backendOption, partition, account,
                       qos,     sbatchArgs, sharedDir, acceptSteering});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args, roundUsage, out,
            [&](const CommandLine::Problem &problem) { return usageError(err, problem.message); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return usageError(err, QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    const QStringList single = {QStringLiteral("project"), QStringLiteral("task"), QStringLiteral("agent"),
                                QStringLiteral("workers"), QStringLiteral("rounds"), QStringLiteral("resume")};
    for (const QString &name : single) {
        if (parser.values(name).size() > 1)
            return usageError(err, QStringLiteral("--%1 given more than once").arg(name));
    }
    if (!parser.isSet(project) || parser.value(project).isEmpty())
        return usageError(err, QStringLiteral("--project is required"));
    if (!parser.isSet(agent))
        return usageError(err, QStringLiteral("--agent is required (%1)").arg(discoveryAgentKinds().join(QStringLiteral(", "))));
    if (!parser.isSet(task) && !parser.isSet(resume))
        return usageError(err, QStringLiteral("--task is required (a built-in task: %1, or a task folder)")
                                   .arg(TaskRegistry::names().join(QStringLiteral(", "))));

    RoundConfig config;
    config.agent.kind = parser.value(agent);
    if (!discoveryAgentKinds().contains(config.agent.kind))
        return usageError(err, QStringLiteral("unknown agent '%1' (known: %2)")
                                   .arg(config.agent.kind, discoveryAgentKinds().join(QStringLiteral(", "))));
    config.agent.model = parser.value(model);
    config.agent.baseUrl = parser.value(baseUrl);
    config.agent.command = parser.value(command);
    if (config.agent.kind == QLatin1String("command") && config.agent.command.trimmed().isEmpty())
        return usageError(err, QStringLiteral("--agent command needs --command CMD"));

    auto intOption = [&](const QCommandLineOption &o, qint64 min, qint64 *value) -> QString {
        bool ok = false;
        const qint64 v = parser.value(o).toLongLong(&ok);
        if (!ok || v < min)
            return QStringLiteral("--%1 must be an integer ≥ %2, not '%3'").arg(o.names().first()).arg(min).arg(parser.value(o));
        *value = v;
        return {};
    };
    qint64 n = 0;
    if (parser.isSet(workers)) {
        if (const QString e = intOption(workers, 1, &n); !e.isEmpty())
            return usageError(err, e);
        if (n > 1024)
            return usageError(err, QStringLiteral("--workers %1 is more than 1024").arg(n));
        config.workers = int(n);
    }
    if (parser.isSet(rounds)) {
        if (const QString e = intOption(rounds, 1, &n); !e.isEmpty())
            return usageError(err, e);
        config.maxRounds = int(std::min<qint64>(n, 1 << 30));
    }
    if (parser.isSet(maxCalls)) {
        if (const QString e = intOption(maxCalls, 1, &n); !e.isEmpty())
            return usageError(err, e);
        config.maxCalls = n;
    }
    if (parser.isSet(resume)) {
        if (const QString e = intOption(resume, 1, &n); !e.isEmpty())
            return usageError(err, e);
        config.resume = n;
    }
    if (parser.isSet(seed)) {
        bool ok = false;
        config.seed = parser.value(seed).toULongLong(&ok);
        if (!ok)
            return usageError(err, QStringLiteral("--seed must be a non-negative integer, not '%1'").arg(parser.value(seed)));
    }
    config.agent.seed = config.seed;
    if (parser.isSet(beta)) {
        const Result<double> b = OptionValues::number(QStringLiteral("--beta"), parser.value(beta), 0.0, 1.0);
        if (!b)
            return usageError(err, b.error);
        config.beta = b.value;
    }
    if (parser.isSet(maxUsd)) {
        const Result<double> usd = OptionValues::number(QStringLiteral("--max-usd"), parser.value(maxUsd), 0.0,
                                                        std::numeric_limits<double>::infinity());
        if (!usd)
            return usageError(err, usd.error);
        config.maxUsd = usd.value;
    }
    if (config.resume != 0 && !parser.isSet(workers))
        config.workers = 0; // the iteration's own W
    config.policy = PolicyChoice::fromArgument(parser.value(policy));
    if (config.policy.kind() == PolicyChoice::Kind::Manual)
        return usageError(err, QStringLiteral("the manual policy exists in the workbench only (a person picks each batch "
                                              "there); steer a headless round with --accept-steering and dreamrsi steer"));
    config.acceptSteering = parser.isSet(acceptSteering);
    if (parser.isSet(task)) {
        config.task = parser.value(task);
        const bool known = TaskRegistry::names().contains(config.task) || QFileInfo(config.task).isDir();
        if (!known)
            return usageError(err, QStringLiteral("unknown task '%1' (built-in: %2, or a task folder)")
                                       .arg(config.task, TaskRegistry::names().join(QStringLiteral(", "))));
        if (QFileInfo(config.task).isDir() && !TaskRegistry::names().contains(config.task))
            config.task = QFileInfo(config.task).absoluteFilePath();
    }

    std::optional<SlurmSettings> slurmSettings;
    const QString backendName = parser.isSet(backendOption) ? parser.value(backendOption) : QStringLiteral("local");
    if (backendName == QLatin1String("slurm")) {
        SlurmSettings slurm;
        slurm.partition = parser.value(partition);
        slurm.account = parser.value(account);
        slurm.qos = parser.value(qos);
        const Result<QStringList> words = SlurmSettings::splitArguments(parser.value(sbatchArgs));
        if (!words.ok())
            return usageError(err, words.error);
        slurm.extraArgs = *words.value;
        slurm.sharedDir = parser.value(sharedDir);
        slurmSettings = slurm;
    } else if (backendName == QLatin1String("local")) {
        for (const QCommandLineOption *o : {&partition, &account, &qos, &sbatchArgs, &sharedDir}) {
            if (parser.isSet(*o))
                return usageError(err, QStringLiteral("--%1 needs --backend slurm").arg(o->names().first()));
        }
    } else {
        return usageError(err, QStringLiteral("--backend must be local or slurm, not '%1'").arg(backendName));
    }
    std::mutex errMutex;
    const std::shared_ptr<EvaluationBackend> backend = RoundSession::makeBackend(slurmSettings, [&err, &errMutex](const QString &line) {
        std::lock_guard lock(errMutex);
        err << line << '\n';
        err.flush();
    });
    // Checked before the project or the agent is touched: a missing
    // partition costs nothing (the runner checks again when it starts).
    if (const QString problem = backend->prepare(); !problem.isEmpty()) {
        err << "error: " << backend->name() << " backend: " << problem << '\n';
        return 1;
    }

    // The project: opened, or created when it does not exist.
    ProjectStore store;
    const QString path = parser.value(project);
    StoreResult<OpenReport> opened;
    if (QFileInfo::exists(path)) {
        opened = await(store.open(path));
    } else {
        ProjectInfo info;
        info.name = QFileInfo(path).completeBaseName();
        info.task = config.task;
        opened = await(store.create(path, info));
        if (opened.ok())
            err << "created project " << path << '\n';
    }
    if (!opened.ok()) {
        err << "error: " << opened.error << '\n';
        return 1;
    }
    QString agentTask = config.task;
    if (config.resume != 0) {
        const StoreResult<IterationData> data = await(store.iterationData(config.resume));
        if (!data.ok()) {
            err << "error: " << data.error << '\n';
            return 1;
        }
        if (agentTask.isEmpty())
            agentTask = data.value->info.task.value_or(QString());
    }
    const Result<std::shared_ptr<DiscoveryAgent>> made = RoundSession::makeAgent(config, agentTask);
    if (!made.ok()) {
        err << "error: agent " << config.agent.kind << ": " << made.error << '\n';
        return 1;
    }
    const std::shared_ptr<DiscoveryAgent> discovery = *made.value;

    RoundRunner runner(&store, config, discovery, backend);
    QObject::connect(&runner, &RoundRunner::logLine, &runner, [&](const QString &line) {
        std::lock_guard lock(errMutex);
        err << line << '\n';
        err.flush();
    }, Qt::DirectConnection);
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
    if (parser.isSet(json)) {
        out << QString::fromUtf8(QJsonDocument(summary.toJson()).toJson(QJsonDocument::Compact)) << '\n';
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
