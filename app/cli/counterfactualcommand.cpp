// `dreamrsi loop --worlds …`: the counterfactual loop, recorded worlds standing
// in for the discovery agent (docs/online.md, "The counterfactual loop").
#include "dreamcommand.h"

#include "commandline.h"
#include "dreamoptions.h"
#include "optionvalues.h"

#include "loop/counterfactual/counterfactualloop.h"
#include "project/projectsimulations.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <csignal>
#include <limits>
#include <mutex>

namespace dreamrsi {

namespace {

const char *const Usage =
    "Usage: dreamrsi loop --worlds W1.json [--worlds W2.json …] [--world-dir DIR] --iterations T [--versions M]\n"
    "                     [--agent builtin|openai|anthropic|gemini|command] [--policy builtin:NAME|FILE.js]\n"
    "                     [--workers W] [--rounds K] [--beta B] [--seed S] [--repeats R] [--compare | --fixed]\n"
    "                     [--guard] [--fixed-probe] [--probe auto|early|off|N] [--rule capped|widened|uncertain|anchored]\n"
    "                     [--floor on|off]\n"
    "                     [--valuation imagined|revealed|oracle] [--completions C] [--project P] [--json]\n"
    "\n"
    "The counterfactual loop: the recursive loop with recorded worlds standing in for the discovery agent,\n"
    "so Dream-RSI and fixed exploration can be compared exactly and over many seeds. Iteration t deploys\n"
    "the current policy on world t as one replay episode (W = --workers, K = --rounds, β = --beta, else the\n"
    "policy's defaultBeta, else 0.5; Math.random seeded with S as `dreamrsi replay --seed S` does, the\n"
    "replay command's default seed without --seed). Only the cells that episode revealed join the history;\n"
    "after every iteration but the last a dream of M versions over that history (W, λ, β grid, K) picks\n"
    "the best mean value that keeps the floor (--floor) and beats the noise, approved automatically.\n"
    "W, K, λ, the β grid, the valuation and C are the\n"
    "project's replay configuration with --project (as Simulate the Loop takes them), else a new\n"
    "project's (W 10, λ 0.1, β {0, 0.25, 0.5, 0.75, 1}, no K, imagined C 8); the flags override them.\n"
    "Nothing is stored unless --project.\n"
    "The dreams value versions over C imagined completions of every history world (the default, a new\n"
    "project's) or over the history as revealed; the dream after iteration t of repeat r draws its\n"
    "completions with seed S + 1000·r + t.\n"
    "\n"
    "  --worlds FILE      a recorded world (repeatable; in the given order)\n"
    "  --world-dir DIR    every *.json of DIR, sorted by file name, after the --worlds\n"
    "  --iterations T     iterations per run (at most the number of worlds)\n"
    "  --versions M       versions per dream, the deployed one included (default 4)\n"
    "  --agent KIND       the policy developer: builtin (the offline improver, default), openai, anthropic,\n"
    "                     gemini or command (--dream-agent is a synonym); --model, --base-url, --command,\n"
    "                     --prompt configure it\n"
    "  --policy P         the starting policy (default builtin:portfolio)\n"
    "  --workers W        W of the deployments and the dreams (default: see above)\n"
    "  --rounds K         round limit K of the deployments and the dreams (default none)\n"
    "  --beta B           β of every deployment\n"
    "  --seed S           repeat r > 0 takes the worlds in a shuffle seeded with S + r (splitmix64,\n"
    "                     Fisher–Yates); also seeds the developer and Math.random (default 0)\n"
    "  --repeats R        repeats (default 1)\n"
    "  --fixed            run fixed exploration only (the starting policy throughout)\n"
    "  --compare          run both arms on the same world orders\n"
    "  --guard            also run Dream-RSI with the quality guard (arm dream_guarded): a proposal that\n"
    "                     reaches less mean attainment on the history than the deployed version at the\n"
    "                     deployment β is refused for the best one that does not\n"
    "  --valuation V      imagined (default; with --project, the project's) or revealed: what the dreams\n"
    "                     value versions over; oracle values them over the complete recorded worlds\n"
    "                     behind the history (a study's upper arm: is a shortfall the valuation's?)\n"
    "  --completions C    imagined completions of each history world (default: see above)\n"
    "  --rule R           how completions are drawn: capped, widened, uncertain or anchored (default: see above; docs/online.md)\n"
    "  --probe P          probe calls after each deployment of the Dream-RSI arms, where the world model\n"
    "                     is blind (docs/online.md, probes): auto (default, at most 3), off, or at most N\n"
    "  --fixed-probe      also run fixed exploration followed by the same probes (arm fixed_probe): the\n"
    "                     probes' own gain, apart from what the dreams learned\n"
    "  --floor on|off     the dreams' floor check (default on; docs/online.md): a proposal must reach, on\n"
    "                     its hardest history world at the deployment β, what the starting policy reaches\n"
    "                     on its own hardest one\n"
    "  --time-limit-ms MS time limit of one script call (default 2000)\n"
    "  --project P        start from the project's replay configuration; store the run's JSON beside\n"
    "                     the project (P.simulations/)\n"
    "  --json             print {runs: [{fixed, arm, repeat, iterations: [{iteration, world,\n"
    "                     policy_version, calls, best_score, attainment, cumulative_calls}]}], summary}\n";

std::atomic<CounterfactualLoop *> g_running{nullptr};

void onLoopSignal(int)
{
    if (CounterfactualLoop *loop = g_running.load())
        loop->stop();
}

} // namespace

bool isCounterfactualLoop(const QStringList &args)
{
    for (const QString &a : args) {
        const QString word = a.startsWith(QLatin1String("--")) ? a.mid(2) : a.startsWith(QLatin1Char('-')) ? a.mid(1) : QString();
        const QString name = word.section(QLatin1Char('='), 0, 0);
        if (name == QLatin1String("worlds") || name == QLatin1String("world-dir"))
            return true;
    }
    return false;
}

int runCounterfactualLoopCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    auto usageError = [&](const QString &message) {
        err << "error: " << message << "\n\n" << Usage;
        return 2;
    };
    using CommandLine::flag;
    using CommandLine::value;
    const QList<QCommandLineOption> options{
        value("worlds", "FILE"), value("world-dir", "DIR"), value("iterations", "T"), value("versions", "M"),
        value("agent", "KIND"), value("dream-agent", "KIND"), value("model", "M"), value("base-url", "URL"),
        value("command", "CMD"), value("prompt", "FILE"), value("policy", "P"), value("workers", "W"),
        value("rounds", "K"), value("beta", "B"), value("seed", "S"), value("repeats", "R"),
        value("time-limit-ms", "MS"), flag("fixed"), flag("compare"), flag("guard"), value("project", "P"), flag("json"),
        value("valuation", "V"), value("completions", "C"), value("rule", "NAME"), value("probe", "P"),
        flag("fixed-probe"), value("floor", "on|off")};
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(parser, options, args, Usage, out, usageError))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return usageError(QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));

    CounterfactualSettings s;
    s.worldPaths = parser.values(QStringLiteral("worlds"));
    for (const QString &dirPath : parser.values(QStringLiteral("world-dir"))) {
        const QDir dir(dirPath);
        if (!dir.exists())
            return usageError(QStringLiteral("--world-dir: no folder %1").arg(dirPath));
        const QStringList names = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
        for (const QString &name : names)
            s.worldPaths.append(dirPath.endsWith(QLatin1Char('/')) ? QString(dirPath + name) : QString(dirPath + QLatin1Char('/') + name));
    }
    if (s.worldPaths.isEmpty())
        return usageError(QStringLiteral("no worlds: give --worlds FILE or a --world-dir holding *.json files"));
    if (!parser.isSet(QStringLiteral("iterations")))
        return usageError(QStringLiteral("--iterations is required (at most the %1 worlds given)").arg(s.worldPaths.size()));

    QString error;
    auto integer = [&](const char *name, qint64 low, qint64 high, qint64 fallback) -> std::optional<qint64> {
        const QString option = QString::fromLatin1(name);
        if (!parser.isSet(option))
            return fallback;
        const Result<qint64> n = OptionValues::integer(QStringLiteral("--") + option, parser.value(option), low, high);
        error = n.error;
        return n.value;
    };
    const std::optional<qint64> t = integer("iterations", 1, std::numeric_limits<int>::max(), 1);
    if (!t)
        return usageError(error);
    if (*t > s.worldPaths.size())
        return usageError(QStringLiteral("--iterations %1 exceeds the number of worlds (%2)").arg(*t).arg(s.worldPaths.size()));
    s.iterations = int(*t);
    const std::optional<qint64> m = integer("versions", 1, 1000, 4);
    const std::optional<qint64> r = m ? integer("repeats", 1, 1000000, 1) : std::nullopt;
    const std::optional<qint64> limit = r ? integer("time-limit-ms", 1, 3600000, 2000) : std::nullopt;
    if (!limit)
        return usageError(error);
    s.versions = int(*m);
    s.repeats = int(*r);
    s.limits.callMs = int(*limit);
    // W, K, the valuation and C as every command reads them; --beta is the deployments' one β.
    OptionValues::ReplayConfigFlags flags;
    flags.lambda.clear();
    flags.betas.clear();
    flags.oracle = true;
    flags.rule = QStringLiteral("rule");
    const Result<OptionValues::ReplayConfigFlags::Read> replay = flags.read(parser);
    if (!replay)
        return usageError(replay.error);
    // Where the study starts: the project's replay configuration with
    // --project, else a new project's (as Simulate the Loop does); the
    // flags override it.
    const QString project = parser.value(QStringLiteral("project"));
    std::optional<ReplayConfig> projectConfig;
    if (parser.isSet(QStringLiteral("project"))) {
        if (!QFileInfo(project).isFile()) {
            err << "error: --project: no project at " << project << '\n';
            return 1;
        }
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(project);
        if (!reader.ok()) {
            err << "error: " << reader.error << '\n';
            return 1;
        }
        const StoreResult<StoredReplayConfig> config = (*reader.value)->replayConfig();
        if (!config.ok()) {
            err << "error: " << config.error << '\n';
            return 1;
        }
        projectConfig = config.value->config;
    }
    s.setReplayConfig(replay.value->overrides.applyTo(CounterfactualSettings::forProject(projectConfig).replayConfig()));
    s.oracle = replay.value->oracle;
    if (parser.isSet(QStringLiteral("beta"))) {
        const Result<double> beta = OptionValues::number(QStringLiteral("--beta"), parser.value(QStringLiteral("beta")), 0.0, 1.0);
        if (!beta)
            return usageError(beta.error);
        s.beta = beta.value;
    }
    if (parser.isSet(QStringLiteral("seed"))) {
        bool ok = false;
        s.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
        if (!ok)
            return usageError(QStringLiteral("--seed must be a non-negative integer (got '%1')").arg(parser.value(QStringLiteral("seed"))));
        // Math.random as `dreamrsi replay --seed S` seeds it (a 32-bit seed).
        s.episodeSeed = quint32(s.seed);
    }
    if (parser.isSet(QStringLiteral("policy"))) {
        s.policyArgument = parser.value(QStringLiteral("policy"));
        // As round and loop --task: a wrong built-in name is a usage error
        // (a file is read when the loop starts).
        const QLatin1String prefix("builtin:");
        if (s.policyArgument.startsWith(prefix))
            if (const QString unknown = OptionValues::unknownBuiltinPolicy(s.policyArgument.mid(prefix.size())); !unknown.isEmpty())
                return usageError(unknown);
    }
    if (parser.isSet(QStringLiteral("probe"))) {
        const Result<ProbeSetting> probe = OptionValues::probe(QStringLiteral("--probe"), parser.value(QStringLiteral("probe")));
        if (!probe)
            return usageError(probe.error);
        s.probe = *probe.value;
    }

    if (parser.isSet(QStringLiteral("floor"))) {
        const Result<bool> floor = OptionValues::onOff(QStringLiteral("--floor"), parser.value(QStringLiteral("floor")));
        if (!floor)
            return usageError(floor.error);
        s.floor = *floor.value;
    }

    const bool fixed = parser.isSet(QStringLiteral("fixed"));
    const bool compare = parser.isSet(QStringLiteral("compare"));
    const bool guard = parser.isSet(QStringLiteral("guard"));
    if (fixed && compare)
        return usageError(QStringLiteral("--fixed and --compare exclude each other (--compare runs both arms)"));
    if (fixed && guard)
        return usageError(QStringLiteral("--guard adds a Dream-RSI arm and cannot go with --fixed"));
    s.arms.clear();
    if (!fixed)
        s.arms.append(CounterfactualArm::Dream);
    if (guard)
        s.arms.append(CounterfactualArm::Guarded);
    if (fixed || compare)
        s.arms.append(CounterfactualArm::Fixed);
    if (parser.isSet(QStringLiteral("fixed-probe"))) {
        if (!s.probe.enabled())
            return usageError(QStringLiteral("--fixed-probe needs probes (--probe auto or N, not off)"));
        s.arms.append(CounterfactualArm::FixedProbe);
    }

    if (parser.isSet(QStringLiteral("agent")) && parser.isSet(QStringLiteral("dream-agent"))
        && parser.value(QStringLiteral("agent")) != parser.value(QStringLiteral("dream-agent")))
        return usageError(QStringLiteral("--agent and --dream-agent name the same thing; give one"));
    DreamOptions dream;
    dream.agentKind = parser.isSet(QStringLiteral("dream-agent")) ? parser.value(QStringLiteral("dream-agent"))
                                                                   : parser.value(QStringLiteral("agent"));
    if (dream.agentKind.isEmpty())
        dream.agentKind = QStringLiteral("builtin");
    if (!DreamOptions::kinds().contains(dream.agentKind))
        return usageError(QStringLiteral("--agent: unknown kind '%1' (one of %2)")
                              .arg(dream.agentKind, DreamOptions::kinds().join(QStringLiteral(", "))));
    dream.model = parser.value(QStringLiteral("model"));
    dream.baseUrl = parser.value(QStringLiteral("base-url"));
    dream.command = parser.value(QStringLiteral("command"));
    dream.promptPath = parser.value(QStringLiteral("prompt"));
    dream.settings.seed = s.seed;
    if (dream.agentKind == QLatin1String("command") && dream.command.trimmed().isEmpty())
        return usageError(QStringLiteral("--agent command needs --command CMD"));

    std::shared_ptr<PolicyDeveloper> developer;
    if (!fixed) {
        const Result<std::shared_ptr<PolicyDeveloper>> made = dream.createDeveloper();
        if (!made) {
            err << "error: policy developer " << dream.agentKind << ": " << made.error << '\n';
            return 1;
        }
        developer = *made.value;
    }

    CounterfactualLoop loop(developer);
    std::mutex errMutex;
    QObject::connect(&loop, &CounterfactualLoop::message, &loop, [&](const QString &line) {
        std::lock_guard lock(errMutex);
        err << "loop: " << line << '\n' << Qt::flush;
    }, Qt::DirectConnection);
    g_running.store(&loop);
    auto previousInt = std::signal(SIGINT, onLoopSignal);
    auto previousTerm = std::signal(SIGTERM, onLoopSignal);
    const CounterfactualReport report = loop.run(s);
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    g_running.store(nullptr);
    if (!report.error.isEmpty()) {
        err << "error: " << report.error << '\n';
        return 1;
    }
    const QJsonObject json = CounterfactualLoop::toJson(report, s);
    const QByteArray text = QJsonDocument(json).toJson(QJsonDocument::Indented);
    if (parser.isSet(QStringLiteral("project"))) {
        const Result<QString> saved = ProjectSimulations::save(project, text);
        if (!saved.ok()) {
            err << "error: " << saved.error << '\n';
            return 1;
        }
        err << "loop: stored the run in " << *saved.value << '\n';
    }
    // The summary in words, on stderr: what a researcher reads first.
    const QJsonObject summary = json.value(QStringLiteral("summary")).toObject();
    for (const CounterfactualArm arm : s.arms) {
        const QJsonObject a = summary.value(counterfactualArmName(arm)).toObject();
        auto fmt = [](const QJsonValue &v) { return v.isDouble() ? QString::number(v.toDouble(), 'g', 4) : QStringLiteral("–"); };
        err << "loop: " << counterfactualArmName(arm)
            << (arm == CounterfactualArm::Fixed || arm == CounterfactualArm::FixedProbe ? QString()
                : s.oracle                            ? QStringLiteral(" (oracle valuation)")
                : s.valuation == Valuation::Imagined ? QStringLiteral(" (imagined valuation, C %1)").arg(s.completions)
                                                      : QStringLiteral(" (revealed valuation)"))
            << (arm != CounterfactualArm::Fixed && s.probe.enabled() ? QStringLiteral(", probe %1").arg(s.probe.name()) : QString())
            << ": calls per iteration " << fmt(a.value(QStringLiteral("calls_mean")))
            << " ± " << fmt(a.value(QStringLiteral("calls_ci95"))) << ", attainment " << fmt(a.value(QStringLiteral("attainment_mean")))
            << " ± " << fmt(a.value(QStringLiteral("attainment_ci95"))) << '\n';
    }
    if (report.stopped)
        err << "loop: stopped; the runs so far are reported\n";
    if (parser.isSet(QStringLiteral("json")))
        out << text;
    return 0;
}

} // namespace dreamrsi
