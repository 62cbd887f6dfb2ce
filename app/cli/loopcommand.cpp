// `dreamrsi loop`: T iterations of round → dream → approve (docs/online.md#the-recursive-loop),
// or with --fixed the fixed-exploration baseline: the same rounds (agent,
// evaluator, seeds, budgets) with a policy that never changes.
#include "dreamcommand.h"

#include "commandline.h"
#include "dreamoptions.h"
#include "optionvalues.h"
#include "roundcommandline.h"

#include "loop/recursiveloop.h"
#include "loop/round/roundsession.h"
#include "store/projectstore.h"

#include <QCommandLineParser>
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
        "the deployed policy (the newest approved version, else builtin:portfolio; or --policy until a dream's\n"
        "version is approved), then dreams M versions over every finished iteration of the project; with\n"
        "--auto-approve the proposal is approved and drives the next round. --fixed runs the fixed-exploration\n"
        "baseline: the same rounds with the policy deployed (or given) at the start, and no dreaming. No dream\n"
        "follows the last round (its version would never run). Prints {runs: [{fixed, iterations: [{iteration,\n"
        "policy_version, cells, best_score, cumulative_calls}]}]} with --json; best_score is the best score of the\n"
        "run so far."));
    RoundCommandLine::add(parser, RoundCommandLine::Command::Loop);
    const QCommandLineOption iterations(QStringLiteral("iterations"), QStringLiteral("T: iterations (default 3)."), QStringLiteral("T"),
                                        QStringLiteral("3"));
    const QCommandLineOption fixed(QStringLiteral("fixed"), QStringLiteral("The fixed-exploration baseline: never dream, never change the policy."));
    const QCommandLineOption autoApprove(QStringLiteral("auto-approve"),
                                         QStringLiteral("Approve each dream's proposal and record that it was automatic."));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("Print the runs as JSON."));
    const QCommandLineOption awaitApproval(
        QStringLiteral("await-approval"),
        QStringLiteral("After each dream, wait until `dreamrsi approve` approves a version (--version V, --best) or declines."));
    parser.addOptions({iterations, fixed, autoApprove, json, awaitApproval});
    DreamFlags::add(parser, QStringLiteral("dream-agent"), false);

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
    const Result<RoundOptions> options = RoundCommandLine::read(parser, RoundCommandLine::Command::Loop);
    if (!options)
        return usageError(options.error);
    if (parser.isSet(awaitApproval) && (parser.isSet(autoApprove) || parser.isSet(fixed)))
        return usageError(QStringLiteral("--await-approval cannot go with %1: a person approves each dream's proposal")
                              .arg(parser.isSet(fixed) ? QStringLiteral("--fixed (nothing is dreamed)")
                                                       : QStringLiteral("--auto-approve")));
    const Result<DreamOptions> read = DreamFlags::read(parser, QStringLiteral("dream-agent"), false);
    if (!read)
        return usageError(read.error);
    const DreamOptions &dream = *read.value;

    const RoundConfig &base = options.value->round;
    const Result<qint64> t = OptionValues::integer(QStringLiteral("--iterations"), parser.value(iterations), 1,
                                                   std::numeric_limits<int>::max());
    if (!t)
        return usageError(t.error);
    const quint64 seed0 = dream.settings.seed;
    const bool isFixed = parser.isSet(fixed);

    const Result<std::shared_ptr<DiscoveryAgent>> made = RoundSession::makeAgent(base, base.task);
    if (!made.ok()) {
        err << "error: agent " << base.agent.kind << ": " << made.error << '\n';
        return 1;
    }
    const std::shared_ptr<DiscoveryAgent> discovery = *made.value;
    std::mutex errMutex;
    // Checked before the project is touched, as `round` does: a missing
    // partition costs nothing.
    const Result<std::shared_ptr<EvaluationBackend>> backend =
        RoundSession::checkedBackend(options.value->slurm, [&err, &errMutex](const QString &line) {
            std::lock_guard lock(errMutex);
            err << "loop: " << line << '\n' << Qt::flush;
        });
    if (!backend.ok()) {
        err << "error: " << backend.error << '\n';
        return 1;
    }
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
    const QString path = parser.value(QStringLiteral("project"));
    bool created = false;
    const StoreResult<OpenReport> opened = RoundSession::openOrCreate(store, path, base.task, &created);
    if (created)
        err << "loop: created project " << path << '\n';
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
    RecursiveLoop loop(&store, discovery, *backend.value, developer);
    // SIGINT/SIGTERM stop the loop cleanly (the round's attempts finish; a
    // wait for approval ends, its proposal stays).
    LoopStopSignals stopSignals(&loop);
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
