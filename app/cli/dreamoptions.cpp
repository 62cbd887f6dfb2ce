#include "dreamoptions.h"

#include "optionvalues.h"


#include <limits>

namespace dreamrsi {

void DreamFlags::add(QCommandLineParser &parser, const QString &agentOption, bool shared)
{
    parser.addOption(QCommandLineOption(QStringLiteral("versions"), QStringLiteral("M: versions per dream, the deployed one included (default 4)."),
                      QStringLiteral("M"), QStringLiteral("4")));
    parser.addOption(QCommandLineOption(agentOption,
                      QStringLiteral("Who writes new versions: builtin (the offline policy improver), openai, anthropic, "
                                     "gemini or command (default builtin)."),
                      QStringLiteral("KIND"), QStringLiteral("builtin")));
    if (shared) {
        parser.addOption(QCommandLineOption(QStringLiteral("model"), QStringLiteral("The provider's model name."), QStringLiteral("M")));
        parser.addOption(QCommandLineOption(QStringLiteral("base-url"), QStringLiteral("The provider's base URL."), QStringLiteral("URL")));
        parser.addOption(QCommandLineOption(QStringLiteral("command"), QStringLiteral("Agent kind command: the command line."), QStringLiteral("CMD")));
        parser.addOption(QCommandLineOption(QStringLiteral("seed"), QStringLiteral("Seed of the built-in improver (default 0)."), QStringLiteral("S"),
                          QStringLiteral("0")));
    }
    // The replay configuration is the project's (`dreamrsi project config`);
    // these flags override it for this run only, and the results say so.
    parser.addOption(QCommandLineOption(workersOption(shared),
                      QStringLiteral("W of the replays, for this run only (default: the project's replay configuration)."),
                      QStringLiteral("W")));
    parser.addOption(QCommandLineOption(QStringLiteral("lambda"),
                      QStringLiteral("λ of the value, for this run only (default: the project's replay configuration)."),
                      QStringLiteral("L")));
    parser.addOption(QCommandLineOption(QStringLiteral("betas"),
                      QStringLiteral("The β grid, for this run only (default: the project's replay configuration)."),
                      QStringLiteral("LIST")));
    parser.addOption(QCommandLineOption(QStringLiteral("replay-rounds"),
                      QStringLiteral("Round limit K of each replayed episode, for this run only (default: the project's "
                                     "replay configuration)."),
                      QStringLiteral("K")));
    parser.addOption(QCommandLineOption(QStringLiteral("valuation"),
                      QStringLiteral("What dreams value versions over: imagined (C completions of every history world) or "
                                     "revealed, for this run only (default: the project's replay configuration)."),
                      QStringLiteral("V")));
    parser.addOption(QCommandLineOption(QStringLiteral("completions"),
                      QStringLiteral("C, imagined completions per history world, for this run only (default: the project's "
                                     "replay configuration)."),
                      QStringLiteral("C")));
    parser.addOption(QCommandLineOption(QStringLiteral("rule"),
                      QStringLiteral("How imagined completions are drawn: capped, widened, uncertain or anchored, for this run only (default: "
                                     "the project's replay configuration)."),
                      QStringLiteral("R")));
    parser.addOption(QCommandLineOption(QStringLiteral("floor"),
                      QStringLiteral("on (default) or off: a proposal must reach, on its hardest history world at the "
                                     "deployment β, what the project's first approved version reaches on its own."),
                      QStringLiteral("on|off"), QStringLiteral("on")));
    parser.addOption(QCommandLineOption(QStringLiteral("time-limit-ms"), QStringLiteral("Time limit of one script call (default 2000)."),
                      QStringLiteral("MS"), QStringLiteral("2000")));
    parser.addOption(QCommandLineOption(QStringLiteral("memory-mb"), QStringLiteral("Address-space limit of each replay child (default 4096)."),
                      QStringLiteral("MB"), QStringLiteral("4096")));
    parser.addOption(QCommandLineOption(QStringLiteral("wall-s"), QStringLiteral("Wall-clock limit of each replay child (default 600)."),
                      QStringLiteral("S"), QStringLiteral("600")));
    parser.addOption(QCommandLineOption(QStringLiteral("prompt"),
                      QStringLiteral("A file replacing the policy-development prompt (also $DREAMRSI_POLICY_PROMPT)."),
                      QStringLiteral("FILE")));
}

QString DreamFlags::workersOption(bool shared)
{
    return shared ? QStringLiteral("workers") : QStringLiteral("replay-workers");
}

Result<DreamOptions> DreamFlags::read(const QCommandLineParser &parser, const QString &agentOption, bool shared)
{
    using Read = Result<DreamOptions>;
    DreamOptions o;
    QString problem;
    auto integer = [&](const QString &name, int low, int *target) {
        const Result<qint64> n =
            OptionValues::integer(QStringLiteral("--") + name, parser.value(name), low, std::numeric_limits<int>::max());
        if (!n) {
            problem = n.error;
            return false;
        }
        *target = int(*n.value);
        return true;
    };
    if (!integer(QStringLiteral("versions"), 1, &o.settings.versions)
        || !integer(QStringLiteral("time-limit-ms"), 1, &o.settings.limits.callMs))
        return Read::failure(problem);
    int memoryMb = 0, wallS = 0;
    if (!integer(QStringLiteral("memory-mb"), 64, &memoryMb) || !integer(QStringLiteral("wall-s"), 1, &wallS))
        return Read::failure(problem);
    o.settings.limits.memoryBytes = qint64(memoryMb) << 20;
    o.settings.limits.wallMs = wallS * 1000;
    OptionValues::ReplayConfigFlags flags;
    flags.workers = workersOption(shared);
    flags.rounds = QStringLiteral("replay-rounds");
    flags.rule = QStringLiteral("rule");
    const Result<OptionValues::ReplayConfigFlags::Read> replay = flags.read(parser);
    if (!replay)
        return replay.failureAs<DreamOptions>();
    o.settings.replay = replay.value->overrides;
    const Result<bool> floor = OptionValues::onOff(QStringLiteral("--floor"), parser.value(QStringLiteral("floor")));
    if (!floor)
        return floor.failureAs<DreamOptions>();
    o.settings.floorCheck = *floor.value;
    bool ok = false;
    o.settings.seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
    if (!ok)
        return Read::failure(
            QStringLiteral("--seed must be a non-negative integer (got '%1')").arg(parser.value(QStringLiteral("seed"))));
    o.agentKind = parser.value(agentOption);
    if (!DreamOptions::kinds().contains(o.agentKind))
        return Read::failure(QStringLiteral("--%1: unknown kind '%2' (one of %3)")
                                 .arg(agentOption, o.agentKind, DreamOptions::kinds().join(QStringLiteral(", "))));
    o.model = parser.value(QStringLiteral("model"));
    o.baseUrl = parser.value(QStringLiteral("base-url"));
    o.command = parser.value(QStringLiteral("command"));
    o.promptPath = parser.value(QStringLiteral("prompt"));
    return Read::success(std::move(o));
}

} // namespace dreamrsi
