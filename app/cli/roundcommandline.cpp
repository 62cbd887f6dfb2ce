#include "roundcommandline.h"

#include "optionvalues.h"

#include "agent/agentfactory.h"
#include "agent/commandagentpresets.h"
#include "eval/taskregistry.h"

#include <QFileInfo>
#include <QList>
#include <QStringList>

#include <limits>

namespace dreamrsi::RoundCommandLine {

namespace {

/// One option: its name, its value's name (none for a flag), and its help
/// for each command (empty: the command has no such option).
struct Spec
{
    QString name;
    QString value;
    QString round;
    QString loop;
};

QList<Spec> specs()
{
    return {
        {QStringLiteral("project"), QStringLiteral("P"), QStringLiteral("project file (.dreamrsi); created when missing"),
         QStringLiteral("project file (.dreamrsi); created when missing")},
        {QStringLiteral("task"), QStringLiteral("NAME"),
         QStringLiteral("built-in task (see `dreamrsi tasks`) or a task folder; with --resume, the iteration's own task "
                        "when omitted"),
         QStringLiteral("built-in task (see `dreamrsi tasks`) or a task folder")},
        {QStringLiteral("agent"), QStringLiteral("KIND"), QStringLiteral("builtin, openai, anthropic, gemini or command"),
         QStringLiteral("discovery agent of every round: builtin, openai, anthropic, gemini or command")},
        {QStringLiteral("model"), QStringLiteral("M"), QStringLiteral("provider model (default: the provider's)"),
         QStringLiteral("provider model (default: the provider's)")},
        {QStringLiteral("base-url"), QStringLiteral("URL"), QStringLiteral("provider endpoint (default: the public one)"),
         QStringLiteral("provider endpoint (default: the public one)")},
        {QStringLiteral("command"), QStringLiteral("CMD"),
         QStringLiteral("the command of --agent command (run with /bin/sh -c), or preset:NAME (claude-code, codex, "
                        "gemini-cli, aider: that tool's command, with its key and base-URL variable let through to it)"),
         QStringLiteral("the command of --agent command (run with /bin/sh -c), or preset:NAME (claude-code, codex, "
                        "gemini-cli, aider)")},
        {QStringLiteral("allow-env"), QStringLiteral("NAMES"),
         QStringLiteral("environment variables let through to --agent command (NAME copies this process's value, "
                        "NAME=VALUE sets one; comma-separated or repeated); nothing else but PATH and HOME is passed"),
         QStringLiteral("environment variables let through to --agent command (NAME or NAME=VALUE, comma-separated or "
                        "repeated)")},
        {QStringLiteral("workers"), QStringLiteral("W"),
         QStringLiteral("attempts at once, the largest batch (default 4; on resume the iteration's own)"),
         QStringLiteral("attempts at once, the largest batch (default 4). The dreams replay under the project's replay "
                        "configuration, whose W the project's first round sets")},
        {QStringLiteral("rounds"), QStringLiteral("K1"),
         QStringLiteral("round limit (default: until an empty batch or no legal cell)"),
         QStringLiteral("round limit of each live round (default: until an empty batch or no legal cell)")},
        {QStringLiteral("policy"), QStringLiteral("P"),
         QStringLiteral("stored version name or id, or builtin:NAME (default: the latest approved version, else "
                        "builtin:portfolio)"),
         QStringLiteral("policy of the rounds, a stored version name or id or builtin:NAME, until a version of a dream is "
                        "approved (with --fixed: every round); the dreams improve on it (default: the latest approved "
                        "version, else builtin:portfolio)")},
        {QStringLiteral("beta"), QStringLiteral("B"),
         QStringLiteral("budget preference in [0, 1] (default: the policy's defaultBeta, else 0.5)"),
         QStringLiteral("budget preference of the live rounds in [0, 1] (default: the policy's defaultBeta, else 0.5)")},
        {QStringLiteral("seed"), QStringLiteral("S"), QStringLiteral("seed of the agent and the policy's Math.random (default 0)"),
         QStringLiteral("seed (default 0): iteration t's round and dream use S + t − 1")},
        {QStringLiteral("max-calls"), QStringLiteral("N"), QStringLiteral("stop at N agent calls (the last batch is cut to fit)"),
         QStringLiteral("stop each round at N agent calls (the last batch is cut to fit)")},
        {QStringLiteral("max-tokens"), QStringLiteral("N"),
         QStringLiteral("stop once the agent's tokens (in + out) reach N"),
         QStringLiteral("stop each round once its agent's tokens (in + out) reach N")},
        {QStringLiteral("max-usd"), QStringLiteral("X"), QStringLiteral("stop once the cost reaches X USD"),
         QStringLiteral("stop each round once its cost reaches X USD")},
        {QStringLiteral("agent-time-limit"), QStringLiteral("S"),
         QStringLiteral("wall-clock limit of one agent call in seconds (default 900; 0 = none): an agent still at work "
                        "past it is killed and its attempt stored as an agent failure"),
         QStringLiteral("wall-clock limit of one agent call in seconds (default 900; 0 = none)")},
        {QStringLiteral("resume"), QStringLiteral("ID"), QStringLiteral("continue the interrupted or stopped iteration ID"),
         QString()},
        {QStringLiteral("backend"), QStringLiteral("B"),
         QStringLiteral("where evaluations run: local (default) or slurm (one batch job each)"),
         QStringLiteral("where evaluations run: local (default) or slurm (one batch job each)")},
        {QStringLiteral("partition"), QStringLiteral("P"),
         QStringLiteral("Slurm partition (default: the cluster's default partition)"),
         QStringLiteral("Slurm partition (default: the cluster's default partition)")},
        {QStringLiteral("account"), QStringLiteral("A"), QStringLiteral("Slurm account"), QStringLiteral("Slurm account")},
        {QStringLiteral("qos"), QStringLiteral("Q"), QStringLiteral("Slurm quality of service"),
         QStringLiteral("Slurm quality of service")},
        {QStringLiteral("sbatch-args"), QStringLiteral("ARGS"),
         QStringLiteral("extra sbatch arguments, split like a shell (quotes kept together)"),
         QStringLiteral("extra sbatch arguments, split like a shell (quotes kept together)")},
        {QStringLiteral("shared-dir"), QStringLiteral("D"),
         QStringLiteral("work directory every node sees (default ~/.cache/dreamrsi/slurm)"),
         QStringLiteral("work directory every node sees (default ~/.cache/dreamrsi/slurm)")},
        {QStringLiteral("probe"), QStringLiteral("P"),
         QStringLiteral("probe calls after the policy's last batch where the world model is blind "
                        "(docs/online.md#probes): auto (at most 3), off, or at most N; default auto when the "
                        "round deploys a dreamed version, else off"),
         QStringLiteral("probe calls after each round's last batch where the world model is blind "
                        "(docs/online.md#probes): auto (at most 3), off, or at most N; default auto for rounds "
                        "that deploy a dreamed version, else off")},
        {QStringLiteral("accept-steering"), QString(),
         QStringLiteral("let `dreamrsi steer` close, refine, hint, pause and continue the round between batches "
                        "(requests through the project's inbox)"),
         QStringLiteral("let `dreamrsi steer` close, refine, hint, pause and continue each round between batches "
                        "(requests through the project's inbox)")},
    };
}

QString helpOf(const Spec &spec, Command command)
{
    return command == Command::Round ? spec.round : spec.loop;
}

/// A help fragment as a sentence, for QCommandLineParser::helpText().
QString sentence(QString text)
{
    if (!text.isEmpty())
        text[0] = text.at(0).toUpper();
    return text + QLatin1Char('.');
}

/// The options a Slurm backend takes: refused without --backend slurm.
const QStringList &slurmOptions()
{
    static const QStringList names = {QStringLiteral("partition"), QStringLiteral("account"), QStringLiteral("qos"),
                                      QStringLiteral("sbatch-args"), QStringLiteral("shared-dir")};
    return names;
}

} // namespace

void add(QCommandLineParser &parser, Command command)
{
    for (const Spec &spec : specs()) {
        const QString help = helpOf(spec, command);
        if (help.isEmpty())
            continue;
        QCommandLineOption option(spec.name, sentence(help), spec.value);
        if (spec.name == QLatin1String("seed"))
            option.setDefaultValue(QStringLiteral("0"));
        parser.addOption(option);
    }
}

QString help(Command command)
{
    constexpr int column = 19; // where the help starts
    constexpr int width = 92;  // the usage text's width
    QString text;
    for (const Spec &spec : specs()) {
        const QString help = helpOf(spec, command);
        if (help.isEmpty())
            continue;
        QString line = QStringLiteral("  --") + spec.name;
        if (!spec.value.isEmpty())
            line += QLatin1Char(' ') + spec.value;
        line = line.size() < column ? line.leftJustified(column) : line + QStringLiteral("\n") + QString(column, QLatin1Char(' '));
        qsizetype lineStart = line.lastIndexOf(QLatin1Char('\n')) + 1;
        bool first = true;
        for (const QString &word : help.split(QLatin1Char(' '))) {
            if (!first && line.size() - lineStart + 1 + word.size() > width) {
                line += QStringLiteral("\n") + QString(column, QLatin1Char(' '));
                lineStart = line.size() - column;
                first = true;
            }
            if (!first)
                line += QLatin1Char(' ');
            line += word;
            first = false;
        }
        text += line + QLatin1Char('\n');
    }
    return text;
}

Result<RoundOptions> read(const QCommandLineParser &parser, Command command)
{
    using R = Result<RoundOptions>;
    const bool isRound = command == Command::Round;
    const auto has = [&parser](const char *name) { return parser.isSet(QString::fromLatin1(name)); };
    const auto value = [&parser](const char *name) { return parser.value(QString::fromLatin1(name)); };

    QStringList single = {QStringLiteral("project"), QStringLiteral("task"), QStringLiteral("agent"),
                          QStringLiteral("workers"), QStringLiteral("rounds"), QStringLiteral("policy")};
    if (isRound)
        single.append(QStringLiteral("resume"));
    for (const QString &name : std::as_const(single)) {
        if (parser.values(name).size() > 1)
            return R::failure(QStringLiteral("--%1 given more than once").arg(name));
    }
    if (!has("project") || value("project").isEmpty())
        return R::failure(QStringLiteral("--project is required"));
    if (!has("agent"))
        return R::failure(QStringLiteral("--agent is required (%1)").arg(discoveryAgentKinds().join(QStringLiteral(", "))));
    const bool resuming = isRound && has("resume");
    if (!has("task") && !resuming)
        return R::failure(QStringLiteral("--task is required (a built-in task: %1, or a task folder)")
                              .arg(TaskRegistry::names().join(QStringLiteral(", "))));

    RoundOptions options;
    RoundConfig &config = options.round;
    config.agent.kind = value("agent");
    if (!discoveryAgentKinds().contains(config.agent.kind))
        return R::failure(QStringLiteral("unknown agent '%1' (known: %2)")
                              .arg(config.agent.kind, discoveryAgentKinds().join(QStringLiteral(", "))));
    config.agent.model = value("model");
    config.agent.baseUrl = value("base-url");
    config.agent.command = value("command");
    if (config.agent.kind == QLatin1String("command") && config.agent.command.trimmed().isEmpty())
        return R::failure(QStringLiteral("--agent command needs --command CMD"));
    // What the user allows into a command agent's environment
    // (docs/online.md, "Agents": nothing else is passed but PATH and HOME).
    for (const QString &list : parser.values(QStringLiteral("allow-env"))) {
        const Result<QStringList> allowed = parseAllowedEnvironment(list);
        if (!allowed)
            return R::failure(QStringLiteral("--allow-env: ") + allowed.error);
        config.agent.allowedEnvironment += *allowed.value;
    }
    if (!config.agent.allowedEnvironment.isEmpty() && config.agent.kind != QLatin1String("command"))
        return R::failure(QStringLiteral("--allow-env is for --agent command (the other agents run no process)"));

    // A whole number of an option in [low, high]; the message names the option.
    QString problem;
    const auto integer = [&](const char *name, qint64 low, qint64 high) -> std::optional<qint64> {
        const Result<qint64> n = OptionValues::integer(QStringLiteral("--") + QLatin1String(name), value(name), low, high);
        if (!n) {
            problem = n.error;
            return std::nullopt;
        }
        return *n.value;
    };
    constexpr qint64 anyInt = std::numeric_limits<int>::max();
    constexpr qint64 any = std::numeric_limits<qint64>::max();
    if (has("workers")) {
        const std::optional<qint64> w = integer("workers", RoundConfig::MinWorkers, RoundConfig::MaxWorkers);
        if (!w)
            return R::failure(problem);
        config.workers = int(*w);
    } else if (resuming) {
        config.workers.reset(); // the iteration's own W
    }
    if (has("rounds")) {
        const std::optional<qint64> k = integer("rounds", 1, anyInt);
        if (!k)
            return R::failure(problem);
        config.maxRounds = int(*k);
    }
    if (has("max-calls")) {
        const std::optional<qint64> n = integer("max-calls", 1, any);
        if (!n)
            return R::failure(problem);
        config.maxCalls = *n;
    }
    if (has("max-tokens")) {
        const std::optional<qint64> n = integer("max-tokens", 1, any);
        if (!n)
            return R::failure(problem);
        config.maxTokens = *n;
    }
    if (resuming) {
        const std::optional<qint64> id = integer("resume", 1, any);
        if (!id)
            return R::failure(problem);
        config.resume = *id;
    }
    bool ok = false;
    config.seed = value("seed").trimmed().toULongLong(&ok);
    if (!ok)
        return R::failure(QStringLiteral("--seed must be a non-negative integer (got '%1')").arg(value("seed")));
    // The agent's seed is the round's, set where a round is prepared
    // (RoundSession::prepare). The loop makes one agent for all its rounds
    // with seed 0 and gives each round S + t − 1 (RecursiveLoop), as it
    // always has: its runs stay the same.
    if (has("beta")) {
        const Result<double> b = OptionValues::number(QStringLiteral("--beta"), value("beta"), 0.0, 1.0);
        if (!b)
            return b.failureAs<RoundOptions>();
        config.beta = b.value;
    }
    if (has("max-usd")) {
        const Result<double> usd = OptionValues::number(QStringLiteral("--max-usd"), value("max-usd"), 0.0,
                                                        std::numeric_limits<double>::infinity());
        if (!usd)
            return usd.failureAs<RoundOptions>();
        config.maxUsd = usd.value;
    }
    if (has("agent-time-limit")) {
        const Result<double> limit = OptionValues::number(QStringLiteral("--agent-time-limit"), value("agent-time-limit"),
                                                          0.0, 7.0 * 24 * 3600);
        if (!limit)
            return limit.failureAs<RoundOptions>();
        config.agentTimeLimitS = *limit.value;
    }
    config.policy = PolicyChoice::fromArgument(value("policy"));
    if (config.policy.kind() == PolicyChoice::Kind::Manual)
        return R::failure(QStringLiteral("the manual policy exists in the workbench only (a person picks each batch "
                                         "there); steer a headless round with --accept-steering and dreamrsi steer"));
    // A built-in name is known without the project: a wrong one is a usage
    // error before anything is created (a stored version's name is checked
    // once the project is open).
    if (config.policy.kind() == PolicyChoice::Kind::Builtin)
        if (const QString unknown = OptionValues::unknownBuiltinPolicy(config.policy.name()); !unknown.isEmpty())
            return R::failure(unknown);
    config.acceptSteering = has("accept-steering");
    if (has("probe")) {
        const Result<ProbeSetting> probe = OptionValues::probe(QStringLiteral("--probe"), value("probe"));
        if (!probe)
            return probe.failureAs<RoundOptions>();
        config.probe = *probe.value;
    }
    if (has("task")) {
        config.task = value("task");
        const bool builtin = TaskRegistry::names().contains(config.task);
        if (!builtin && !QFileInfo(config.task).isDir())
            return R::failure(QStringLiteral("unknown task '%1' (built-in: %2, or a task folder)")
                                  .arg(config.task, TaskRegistry::names().join(QStringLiteral(", "))));
        if (!builtin)
            config.task = QFileInfo(config.task).absoluteFilePath();
    }

    const QString backend = has("backend") ? value("backend") : QStringLiteral("local");
    if (backend == QLatin1String("slurm")) {
        SlurmSettings slurm;
        slurm.partition = value("partition");
        slurm.account = value("account");
        slurm.qos = value("qos");
        const Result<QStringList> words = SlurmSettings::splitArguments(value("sbatch-args"));
        if (!words.ok())
            return words.failureAs<RoundOptions>();
        slurm.extraArgs = *words.value;
        slurm.sharedDir = value("shared-dir");
        options.slurm = slurm;
    } else if (backend == QLatin1String("local")) {
        for (const QString &name : slurmOptions()) {
            if (parser.isSet(name))
                return R::failure(QStringLiteral("--%1 needs --backend slurm").arg(name));
        }
    } else {
        return R::failure(QStringLiteral("--backend must be local or slurm, not '%1'").arg(backend));
    }
    return R::success(std::move(options));
}

} // namespace dreamrsi::RoundCommandLine
