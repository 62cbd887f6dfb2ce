// `dreamrsi loop`: T iterations of round → dream → approve (docs/online.md#the-recursive-loop),
// or with --fixed the fixed-exploration baseline: the same rounds (agent,
// evaluator, seeds, budgets) with a policy that never changes.
#include "dreamcommand.h"

#include "commandline.h"
#include "dreamoptions.h"
#include "optionvalues.h"

#include "agent/agentfactory.h"
#include "eval/taskregistry.h"
#include "loop/recursiveloop.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"

#include <QCommandLineParser>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <mutex>
#include <thread>
#include <limits>

namespace dreamrsi {

namespace {

std::atomic_int g_loopSignals{0};

extern "C" void onLoopStopSignal(int)
{
    g_loopSignals.fetch_add(1);
}

/// While it lives: SIGINT and SIGTERM call RecursiveLoop::stop() (from a
/// watcher thread: run() blocks the calling thread).
class LoopStopSignals
{
public:
    explicit LoopStopSignals(RecursiveLoop *loop)
    {
        g_loopSignals.store(0);
        struct sigaction action = {};
        action.sa_handler = onLoopStopSignal;
        sigemptyset(&action.sa_mask);
        sigaction(SIGINT, &action, &m_oldInt);
        sigaction(SIGTERM, &action, &m_oldTerm);
        m_watcher = std::thread([this, loop] {
            int handled = 0;
            while (!m_done.load()) {
                for (const int seen = g_loopSignals.load(); handled < seen; ++handled)
                    loop->stop();
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
            }
        });
    }
    ~LoopStopSignals()
    {
        m_done.store(true);
        m_watcher.join();
        sigaction(SIGINT, &m_oldInt, nullptr);
        sigaction(SIGTERM, &m_oldTerm, nullptr);
    }

private:
    std::atomic_bool m_done{false};
    std::thread m_watcher;
    struct sigaction m_oldInt = {};
    struct sigaction m_oldTerm = {};
};

} // namespace

int runLoopCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (isCounterfactualLoop(args))
        return runCounterfactualLoopCommand(args, out, err);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "The recursive loop: T iterations of round → dream → approve. Each iteration runs one live round with\n"
        "the deployed policy (the newest approved version, else builtin:portfolio), then dreams M versions\n"
        "over every finished iteration of the project; with --auto-approve the proposal is approved and drives\n"
        "the next round. --fixed runs the fixed-exploration baseline: the same rounds with the policy that was\n"
        "deployed at the start, and no dreaming. No dream follows the last round (its version would never run).\n"
        "Prints {runs: [{fixed, iterations: [{iteration, policy_version, cells, best_score, cumulative_calls}]}]}\n"
        "with --json; best_score is the best score of the run so far."));
    const QCommandLineOption project(QStringLiteral("project"), QStringLiteral("The project file (created when missing)."), QStringLiteral("P"));
    const QCommandLineOption task(QStringLiteral("task"), QStringLiteral("Built-in task or task folder."), QStringLiteral("NAME"));
    const QCommandLineOption iterations(QStringLiteral("iterations"), QStringLiteral("T: iterations (default 3)."), QStringLiteral("T"),
                                        QStringLiteral("3"));
    const QCommandLineOption agent(QStringLiteral("agent"), QStringLiteral("Discovery agent: builtin, openai, anthropic, gemini, command."),
                                   QStringLiteral("KIND"));
    const QCommandLineOption model(QStringLiteral("model"), QStringLiteral("The provider's model name."), QStringLiteral("M"));
    const QCommandLineOption baseUrl(QStringLiteral("base-url"), QStringLiteral("The provider's base URL."), QStringLiteral("URL"));
    const QCommandLineOption command(QStringLiteral("command"), QStringLiteral("Agent kind command: the command line."), QStringLiteral("CMD"));
    const QCommandLineOption workers(QStringLiteral("workers"),
                                     QStringLiteral("W: attempts at once (default 4). The dreams replay under the project's "
                                                    "replay configuration, whose W the project's first round sets."),
                                     QStringLiteral("W"), QStringLiteral("4"));
    const QCommandLineOption rounds(QStringLiteral("rounds"), QStringLiteral("K1: round limit of each live round."), QStringLiteral("K1"));
    const QCommandLineOption beta(QStringLiteral("beta"), QStringLiteral("Budget preference of the live rounds."), QStringLiteral("B"));
    const QCommandLineOption seed(QStringLiteral("seed"), QStringLiteral("Seed (default 0): iteration t's round uses S + t − 1."),
                                  QStringLiteral("S"), QStringLiteral("0"));
    const QCommandLineOption maxCalls(QStringLiteral("max-calls"), QStringLiteral("Agent-call cap of each round."), QStringLiteral("N"));
    const QCommandLineOption maxUsd(QStringLiteral("max-usd"), QStringLiteral("Cost cap of each round (USD)."), QStringLiteral("X"));
    const QCommandLineOption fixed(QStringLiteral("fixed"), QStringLiteral("The fixed-exploration baseline: never dream, never change the policy."));
    const QCommandLineOption autoApprove(QStringLiteral("auto-approve"),
                                         QStringLiteral("Approve each dream's proposal and record that it was automatic."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the runs as JSON."));
    const QCommandLineOption acceptSteering(QStringLiteral("accept-steering"),
                                            QStringLiteral("Let `dreamrsi steer` close, refine, hint, pause and continue each round."));
    const QCommandLineOption awaitApproval(
        QStringLiteral("await-approval"),
        QStringLiteral("After each dream, wait until `dreamrsi approve` approves a version (--version V, --best) or declines."));
    parser.addOptions({project, task, iterations, agent, model, baseUrl, command, workers, rounds, beta, seed, maxCalls, maxUsd,
                       fixed, autoApprove, json, acceptSteering, awaitApproval});
    DreamOptions::add(parser, QStringLiteral("dream-agent"), false);

    auto usageError = [&](const QString &message) {
        err << "error: " << message << "\n\n" << parser.helpText();
        return 2;
    };
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args, [&parser] { return parser.helpText(); }, out,
            [&](const CommandLine::Problem &problem) { return usageError(problem.message); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    if (!parser.isSet(project) || parser.value(project).isEmpty())
        return usageError(QStringLiteral("--project is required"));
    if (!parser.isSet(task))
        return usageError(QStringLiteral("--task is required (a built-in task: %1, or a task folder)")
                              .arg(TaskRegistry::names().join(QStringLiteral(", "))));
    if (!parser.isSet(agent))
        return usageError(QStringLiteral("--agent is required (%1)").arg(discoveryAgentKinds().join(QStringLiteral(", "))));
    if (parser.isSet(awaitApproval) && (parser.isSet(autoApprove) || parser.isSet(fixed)))
        return usageError(QStringLiteral("--await-approval cannot go with %1: a person approves each dream's proposal")
                              .arg(parser.isSet(fixed) ? QStringLiteral("--fixed (nothing is dreamed)")
                                                       : QStringLiteral("--auto-approve")));
    const Result<DreamOptions> read = DreamOptions::read(parser, QStringLiteral("dream-agent"), false);
    if (!read)
        return usageError(read.error);
    const DreamOptions &dream = *read.value;

    RoundConfig base;
    base.agent.kind = parser.value(agent);
    if (!discoveryAgentKinds().contains(base.agent.kind))
        return usageError(QStringLiteral("--agent: unknown kind '%1' (one of %2)")
                              .arg(base.agent.kind, discoveryAgentKinds().join(QStringLiteral(", "))));
    base.agent.model = parser.value(model);
    base.agent.baseUrl = parser.value(baseUrl);
    base.agent.command = parser.value(command);
    if (base.agent.kind == QLatin1String("command") && base.agent.command.trimmed().isEmpty())
        return usageError(QStringLiteral("--agent command needs --command CMD"));
    // A whole number ≥ 1 of an int option; the option names itself in the error.
    const auto positive = [&parser](const QCommandLineOption &o) {
        return OptionValues::integer(QStringLiteral("--") + o.names().constFirst(), parser.value(o), 1,
                                     std::numeric_limits<int>::max());
    };
    const Result<qint64> t = positive(iterations);
    if (!t)
        return usageError(t.error);
    const Result<qint64> w = positive(workers);
    if (!w)
        return usageError(w.error);
    base.workers = int(*w.value);
    if (parser.isSet(rounds)) {
        const Result<qint64> k = positive(rounds);
        if (!k)
            return usageError(k.error);
        base.maxRounds = int(*k.value);
    }
    if (parser.isSet(beta)) {
        const Result<double> b = OptionValues::number(QStringLiteral("--beta"), parser.value(beta), 0.0, 1.0);
        if (!b)
            return usageError(b.error);
        base.beta = b.value;
    }
    if (parser.isSet(maxCalls)) {
        const Result<qint64> n = OptionValues::integer(QStringLiteral("--max-calls"), parser.value(maxCalls), 1,
                                                       std::numeric_limits<qint64>::max());
        if (!n)
            return usageError(n.error);
        base.maxCalls = *n.value;
    }
    if (parser.isSet(maxUsd)) {
        const Result<double> usd = OptionValues::number(QStringLiteral("--max-usd"), parser.value(maxUsd), 0.0,
                                                        std::numeric_limits<double>::infinity());
        if (!usd)
            return usageError(usd.error);
        base.maxUsd = usd.value;
    }
    base.task = parser.value(task);
    const bool builtinTask = TaskRegistry::names().contains(base.task);
    if (!builtinTask && !QFileInfo(base.task).isDir())
        return usageError(QStringLiteral("unknown task '%1' (built-in: %2, or a task folder)")
                              .arg(base.task, TaskRegistry::names().join(QStringLiteral(", "))));
    if (!builtinTask)
        base.task = QFileInfo(base.task).absoluteFilePath();
    const quint64 seed0 = dream.settings.seed;
    const bool isFixed = parser.isSet(fixed);

    const Result<std::shared_ptr<DiscoveryAgent>> made = RoundSession::makeAgent(base, base.task);
    if (!made.ok()) {
        err << "error: agent " << base.agent.kind << ": " << made.error << '\n';
        return 1;
    }
    const std::shared_ptr<DiscoveryAgent> discovery = *made.value;
    std::shared_ptr<PolicyDeveloper> developer;
    if (!isFixed) {
        const Result<std::shared_ptr<PolicyDeveloper>> made = dream.createDeveloper();
        if (!made) {
            err << "error: dream agent " << dream.agentKind << ": " << made.error << '\n';
            return 1;
        }
        developer = *made.value;
    }

    ProjectStore store;
    const QString path = parser.value(project);
    StoreResult<OpenReport> opened;
    if (QFileInfo::exists(path)) {
        opened = store.open(path).result();
    } else {
        ProjectInfo info;
        info.name = QFileInfo(path).completeBaseName();
        info.task = base.task;
        opened = store.create(path, info).result();
        if (opened.ok())
            err << "loop: created project " << path << '\n';
    }
    if (!opened.ok()) {
        err << "error: " << opened.error << '\n';
        return 1;
    }

    LoopSettings settings;
    settings.round = base;
    settings.round.seed = seed0;
    settings.dream = dream.settings;
    settings.iterations = int(*t.value);
    settings.fixed = isFixed;
    settings.autoApprove = parser.isSet(autoApprove);
    settings.awaitApproval = parser.isSet(awaitApproval);
    settings.round.acceptSteering = parser.isSet(acceptSteering);
    RecursiveLoop loop(&store, discovery, RoundSession::makeBackend(std::nullopt), developer);
    // SIGINT/SIGTERM stop the loop cleanly (the round's attempts finish; a
    // wait for approval ends, its proposal stays).
    LoopStopSignals stopSignals(&loop);
    std::mutex errMutex;
    QObject::connect(&loop, &RecursiveLoop::message, &loop, [&](const QString &line) {
        std::lock_guard lock(errMutex);
        err << "loop: " << line << '\n' << Qt::flush;
    }, Qt::DirectConnection);
    const LoopReport report = loop.run(settings);
    store.close().waitForFinished();
    if (parser.isSet(json)) {
        QJsonObject result = RecursiveLoop::toJson({report});
        QJsonArray runs = result.value(QStringLiteral("runs")).toArray();
        QJsonObject run = runs.at(0).toObject();
        run.insert(QStringLiteral("task"), base.task);
        run.insert(QStringLiteral("agent"), base.agent.kind);
        run.insert(QStringLiteral("dream_agent"), isFixed ? QJsonValue(QJsonValue::Null) : QJsonValue(dream.agentKind));
        run.insert(QStringLiteral("seed"), double(seed0));
        runs[0] = run;
        result.insert(QStringLiteral("runs"), runs);
        out << QJsonDocument(result).toJson(QJsonDocument::Indented);
    }
    if (!report.error.isEmpty()) {
        err << "error: " << report.error << '\n';
        return 1;
    }
    return 0;
}

} // namespace dreamrsi
