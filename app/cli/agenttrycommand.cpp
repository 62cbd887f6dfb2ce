#include "agenttrycommand.h"
#include "commandline.h"

#include "agent/agentfactory.h"
#include "eval/taskregistry.h"
#include "backend/localevaluationbackend.h"
#include "loop/round/roundattempt.h"
#include "task/task.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include <atomic>

namespace dreamrsi {

namespace {

const char *const agentUsage =
    "usage: dreamrsi agent try --task NAME --agent builtin|openai|anthropic|gemini|command\n"
    "                          [--model M] [--base-url URL] [--command CMD] [--seed S] [--json]\n"
    "\n"
    "One attempt of a discovery agent from the task's initial program, in a temporary\n"
    "workspace, then the real sandboxed evaluator: a quick check that an agent and its\n"
    "endpoint work before a live round. Nothing is stored in a project.\n"
    "\n"
    "  --task NAME      built-in task (see `dreamrsi tasks`) or a task folder\n"
    "  --agent KIND     builtin, openai, anthropic, gemini or command\n"
    "  --model M        provider model (default: the provider's)\n"
    "  --base-url URL   provider endpoint (default: the public one)\n"
    "  --command CMD    the command of --agent command (run with /bin/sh -c)\n"
    "  --seed S         the attempt's seed (default 0)\n"
    "  --json           print {agent, model, task, proposal, program_bytes, program_lines,\n"
    "                   score, valid, fail_class, error, tokens_in, tokens_out, usd,\n"
    "                   latency_s, retries, calls, eval_s} on stdout instead of text\n"
    "\n"
    "API keys come from the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY).\n"
    "Exit 0 when the agent produced a program (whatever the verdict), 1 when the agent\n"
    "failed (the reason is printed), 2 bad usage.\n";

int agenttryUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi agent try: " << message << "\n\n" << agentUsage;
    return 2;
}

} // namespace

int runAgentCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h")) {
        (args.isEmpty() ? err : out) << agentUsage;
        return args.isEmpty() ? 2 : 0;
    }
    if (args.first() != QLatin1String("try")) {
        err << "dreamrsi agent: unknown subcommand '" << args.first() << "' (known: try)\n\n" << agentUsage;
        return 2;
    }
    QCommandLineParser parser;
    parser.setOptionsAfterPositionalArgumentsMode(QCommandLineParser::ParseAsOptions);
    const QCommandLineOption task(QStringLiteral("task"), {}, QStringLiteral("NAME"));
    const QCommandLineOption agent(QStringLiteral("agent"), {}, QStringLiteral("KIND"));
    const QCommandLineOption model(QStringLiteral("model"), {}, QStringLiteral("M"));
    const QCommandLineOption baseUrl(QStringLiteral("base-url"), {}, QStringLiteral("URL"));
    const QCommandLineOption command(QStringLiteral("command"), {}, QStringLiteral("CMD"));
    const QCommandLineOption seed(QStringLiteral("seed"), {}, QStringLiteral("S"));
    const QCommandLineOption json(QStringLiteral("json"), {});
    parser.addOptions({task, agent, model, baseUrl, command, seed, json});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args.mid(1), agentUsage, out,
            [&](const CommandLine::Problem &problem) { return agenttryUsageError(err, problem.message); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return agenttryUsageError(err, QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first()));
    for (const QCommandLineOption &o : {task, agent, model, baseUrl, command, seed}) {
        if (parser.values(o).size() > 1)
            return agenttryUsageError(err, QStringLiteral("--%1 given more than once").arg(o.names().first()));
    }
    if (!parser.isSet(task) || parser.value(task).isEmpty())
        return agenttryUsageError(err, QStringLiteral("--task is required (a built-in task: %1, or a task folder)")
                                   .arg(TaskRegistry::names().join(QStringLiteral(", "))));
    if (!parser.isSet(agent))
        return agenttryUsageError(err, QStringLiteral("--agent is required (%1)").arg(discoveryAgentKinds().join(QStringLiteral(", "))));

    AgentConfig config;
    config.kind = parser.value(agent);
    if (!discoveryAgentKinds().contains(config.kind))
        return agenttryUsageError(err, QStringLiteral("unknown agent '%1' (known: %2)")
                                   .arg(config.kind, discoveryAgentKinds().join(QStringLiteral(", "))));
    config.model = parser.value(model);
    config.baseUrl = parser.value(baseUrl);
    config.command = parser.value(command);
    if (config.kind == QLatin1String("command") && config.command.trimmed().isEmpty())
        return agenttryUsageError(err, QStringLiteral("--agent command needs --command CMD"));
    if (parser.isSet(seed)) {
        bool ok = false;
        config.seed = parser.value(seed).toULongLong(&ok);
        if (!ok)
            return agenttryUsageError(err, QStringLiteral("--seed must be a non-negative integer, not '%1'").arg(parser.value(seed)));
    }

    const Result<Task> resolved = Task::resolve(parser.value(task));
    if (!resolved.ok())
        return agenttryUsageError(err, resolved.error);
    const Task &t = *resolved.value;
    Result<std::unique_ptr<DiscoveryAgent>> made = createDiscoveryAgent(config, t.name);
    if (!made) {
        err << "error: agent " << config.kind << ": " << made.error << '\n';
        return 1;
    }
    const std::unique_ptr<DiscoveryAgent> discovery = std::move(*made.value);
    QTemporaryDir scratch;
    if (!scratch.isValid()) {
        err << "error: cannot create a temporary workspace: " << scratch.errorString() << '\n';
        return 1;
    }

    // Attempt 0 of a round of its own, run by the round runner's attempt code.
    RoundAttempt::Job job;
    job.evaluationTask = t.name;
    job.initialProgram = t.initialProgram;
    AttemptContext &c = job.context;
    c.task = t.name;
    c.taskStatement = t.statement;
    c.programFileName = t.programFileName;
    c.cellId = QStringLiteral("b0a0");
    c.workspaceDir = scratch.path() + QStringLiteral("/b0a0");
    c.baselineDir = t.directory;
    c.seed = config.seed;
    if (const Task::Direction *d = t.directionFor(0)) { // branch 0's, as in a live round
        c.directionHint = QStringLiteral("direction:") + d->name;
        c.directionDetail = d->detail;
    }
    QFile initial(t.initialProgram);
    if (initial.open(QIODevice::ReadOnly))
        c.parentProgram = QString::fromUtf8(initial.readAll());

    if (!parser.isSet(json))
        err << "agent " << discovery->kind() << " (" << discovery->model() << ") on " << t.name << " …\n";
    err.flush();
    LocalEvaluationBackend backend;
    const std::atomic_bool never{false};
    const RoundAttempt::Outcome r = RoundAttempt::run(job, *discovery, backend, never);
    const AgentUsage &u = r.outcome.usage;
    const bool produced = r.setupError.isEmpty() && r.outcome.ok;
    const QString error = !r.setupError.isEmpty() ? r.setupError
                          : !r.outcome.ok         ? r.outcome.error
                          : r.evaluation && r.evaluation->error ? *r.evaluation->error
                                                                : QString();
    const qsizetype lines = r.outcome.program.isEmpty() ? 0 : r.outcome.program.count(QLatin1Char('\n')) + 1;

    if (parser.isSet(json)) {
        QJsonObject o{{QStringLiteral("agent"), discovery->kind()},
                      {QStringLiteral("model"), u.model.isEmpty() ? discovery->model() : u.model},
                      {QStringLiteral("task"), t.name},
                      {QStringLiteral("ok"), produced},
                      {QStringLiteral("proposal"), r.outcome.proposal},
                      {QStringLiteral("program_bytes"), qint64(r.outcome.program.toUtf8().size())},
                      {QStringLiteral("program_lines"), qint64(lines)},
                      {QStringLiteral("tokens_in"), u.tokensIn},
                      {QStringLiteral("tokens_out"), u.tokensOut},
                      {QStringLiteral("usd"), u.usd},
                      {QStringLiteral("latency_s"), u.latencyS},
                      {QStringLiteral("retries"), u.retries},
                      {QStringLiteral("calls"), u.calls},
                      {QStringLiteral("agent_s"), r.agentSeconds},
                      {QStringLiteral("eval_s"), r.evalSeconds}};
        o.insert(QStringLiteral("error"), error.isEmpty() ? QJsonValue() : QJsonValue(error));
        if (r.evaluation) {
            o.insert(QStringLiteral("score"), r.evaluation->score ? QJsonValue(*r.evaluation->score) : QJsonValue());
            o.insert(QStringLiteral("valid"), r.evaluation->valid);
            o.insert(QStringLiteral("fail_class"), r.evaluation->failClass);
        } else {
            o.insert(QStringLiteral("score"), QJsonValue());
            o.insert(QStringLiteral("valid"), false);
            o.insert(QStringLiteral("fail_class"), r.setupError.isEmpty() ? QStringLiteral("agent") : QStringLiteral("env"));
        }
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    } else {
        if (produced) {
            out << "proposal:\n" << r.outcome.proposal.trimmed() << "\n\n";
            out << "program: " << t.programFileName << ", " << r.outcome.program.toUtf8().size() << " bytes, " << lines
                << " lines\n";
            if (r.evaluation) {
                const EvaluationResult &e = *r.evaluation;
                out << "verdict: " << (e.score ? QString::number(*e.score, 'g', 10) : QStringLiteral("no score"))
                    << (e.valid ? " (valid)" : " (invalid)");
                if (!e.failClass.isEmpty() && e.failClass != QLatin1String("ok"))
                    out << ", fail class " << e.failClass;
                out << ", evaluated in " << QString::number(r.evalSeconds, 'f', 2) << " s\n";
                if (e.error)
                    out << "error: " << *e.error << '\n';
            }
        } else {
            out << "agent failure: " << error << '\n';
        }
        out << "model: " << (u.model.isEmpty() ? discovery->model() : u.model) << '\n'
            << "tokens: " << u.tokensIn << " in, " << u.tokensOut << " out\n"
            << "cost: $" << QString::number(u.usd, 'f', 6) << '\n'
            << "latency: " << QString::number(u.latencyS, 'f', 3) << " s, " << u.retries << " retries, " << u.calls
            << " calls\n";
    }
    if (!produced)
        err << "error: " << error << '\n';
    return produced ? 0 : 1;
}

} // namespace dreamrsi
