#include "roundpreflight.h"

#include "roundsession.h"
#include "task/task.h"

#include "agent/agentfactory.h"
#include "agent/commandagentpresets.h"
#include "agent/explorationprompt.h"
#include "agent/httpchatmodel.h"
#include "agent/pricetable.h"
#include "backend/evaluationbackend.h"
#include "model/attemptpayload.h"
#include "policy/policy.h"
#include "policy/policyspec.h"
#include "project/policyresolution.h"
#include "project/projectpolicies.h"
#include "project/projectreplay.h"
#include "store/projectlock.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

QString seconds(double s)
{
    return s < 10 ? QString::number(s, 'f', 2) : QString::number(qRound64(s));
}

/// Where the project stands: writable, and nobody else writing it.
PreflightCheck checkProject(const QString &path)
{
    PreflightCheck c{QStringLiteral("project"), false, {}};
    const QFileInfo file(path);
    if (!file.exists()) {
        const QFileInfo dir(file.absolutePath());
        if (!dir.isDir() || !dir.isWritable()) {
            c.detail = QStringLiteral("%1 does not exist and its folder %2 cannot be written").arg(path, dir.absoluteFilePath());
            return c;
        }
        c.ok = true;
        c.detail = QStringLiteral("%1 does not exist yet; the round creates it").arg(path);
        return c;
    }
    if (!file.isWritable() || !QFileInfo(file.absolutePath()).isWritable()) {
        c.detail = QStringLiteral("%1 (or its folder) cannot be written").arg(path);
        return c;
    }
    if (const std::optional<WriterInfo> writer = ProjectLock::liveWriter(path);
        writer && writer->pid == QCoreApplication::applicationPid()) {
        // The workbench that asks holds it: its round will be the writer.
        c.ok = true;
        c.detail = QStringLiteral("%1 is open for writing in this process").arg(path);
        return c;
    } else if (writer) {
        c.detail = QStringLiteral("%1 is held by another writer: process %2 (%3)%4")
                       .arg(path)
                       .arg(writer->pid)
                       .arg(writer->application.isEmpty() ? QStringLiteral("unknown") : writer->application,
                            writer->host.isEmpty() ? QString() : QStringLiteral(" on ") + writer->host);
        return c;
    }
    c.ok = true;
    c.detail = QStringLiteral("%1 is writable and no other process holds it").arg(path);
    return c;
}

/// The agent: it can be made (a key where one is needed), and answers
/// without a paid call.
PreflightCheck checkAgent(const AgentConfig &config, const QString &task, QString *model)
{
    PreflightCheck c{QStringLiteral("agent"), false, {}};
    const Result<std::unique_ptr<DiscoveryAgent>> made = createDiscoveryAgent(config, task);
    if (!made.ok()) {
        c.detail = QStringLiteral("%1: %2").arg(config.kind, made.error);
        return c;
    }
    *model = (*made.value)->model();
    if (config.kind == QLatin1String("builtin")) {
        c.ok = true;
        c.detail = QStringLiteral("built-in agent %1 (no paid calls)").arg(*model);
        return c;
    }
    if (httpProviderInfo(config.kind)) {
        const Result<std::unique_ptr<HttpChatModel>> http = HttpChatModel::create(config);
        if (!http.ok()) {
            c.detail = QStringLiteral("%1: %2").arg(config.kind, http.error);
            return c;
        }
        const HttpChatModel::Probe probe = (*http.value)->probe();
        c.ok = probe.accepted;
        c.detail = QStringLiteral("%1 model %2, key %3; %4")
                       .arg(config.kind, *model,
                            (*http.value)->hasKey() ? QStringLiteral("present") : QStringLiteral("none needed"), probe.detail);
        if (probe.reachable && !probe.accepted && probe.status != 401 && probe.status != 403) {
            // The endpoint answers, only not to a model list (some local
            // servers have none): reachable is what this check asks.
            c.ok = true;
            c.detail += QStringLiteral(" (the endpoint answers; it lists no models)");
        }
        return c;
    }
    // A command agent: its executable, and what it says its version is.
    const Result<AgentConfig> resolved = resolveCommandPreset(config);
    if (!resolved.ok()) {
        c.detail = resolved.error;
        return c;
    }
    const QStringList words = QProcess::splitCommand(resolved.value->command);
    if (words.isEmpty()) {
        c.detail = QStringLiteral("the command is empty");
        return c;
    }
    const QString program = words.first();
    QString found;
    if (program.contains(QLatin1Char('/'))) {
        if (QFileInfo(program).isExecutable())
            found = QFileInfo(program).absoluteFilePath();
    } else {
        found = QStandardPaths::findExecutable(program);
    }
    if (found.isEmpty()) {
        c.detail = QStringLiteral("command agent: '%1' is not an executable on PATH").arg(program);
        return c;
    }
    QProcess version;
    version.setProcessChannelMode(QProcess::MergedChannels);
    version.start(found, {QStringLiteral("--version")});
    QString said;
    if (!version.waitForFinished(10000)) {
        version.kill();
        version.waitForFinished(2000);
        said = QStringLiteral("--version gave no answer within 10 s");
    } else {
        const QString first = QString::fromLocal8Bit(version.readAll()).trimmed().section(QLatin1Char('\n'), 0, 0).left(160);
        said = version.exitCode() == 0 && !first.isEmpty()
                   ? QStringLiteral("--version: %1").arg(first)
                   : QStringLiteral("--version exited %1%2").arg(version.exitCode()).arg(first.isEmpty() ? QString() : QStringLiteral(": ") + first);
    }
    c.ok = true;
    c.detail = QStringLiteral("command agent: %1 found (%2)").arg(found, said);
    return c;
}

/// The cells of earlier iterations run by `kind` and `model`: their mean
/// tokens and agent seconds per call; and the evaluations of the task's
/// earlier cells (any agent): their mean seconds, which the initial
/// program's one evaluation often understates (0.2 s against 1.6–3 s).
struct PastCalls
{
    int cells = 0;
    double tokensIn = 0, tokensOut = 0, agentS = 0;
    int evaluations = 0;
    double evalS = 0;
};

PastCalls pastCalls(ProjectStore &store, const QString &kind, const QString &model, const QString &task)
{
    PastCalls past;
    const StoreResult<QList<IterationInfo>> list = await(store.iterations());
    if (!list.ok())
        return past;
    for (const IterationInfo &it : *list.value) {
        const StoreResult<IterationData> data = await(store.iterationData(it.id));
        if (!data.ok())
            continue;
        for (const Cell &cell : data.value->cells) {
            if (const double evalS = AttemptPayload::timingOf(cell).evalS; it.task.value_or(QString()) == task && evalS > 0) {
                past.evaluations += 1;
                past.evalS += evalS;
            }
            const AttemptPayload::Agent agent = AttemptPayload::agentOf(cell);
            if (agent.name != kind || agent.model != model)
                continue;
            past.cells += 1;
            past.tokensIn += double(agent.tokensIn);
            past.tokensOut += double(agent.tokensOut);
            past.agentS += AttemptPayload::timingOf(cell).agentS;
        }
    }
    if (past.cells > 0) {
        past.tokensIn /= past.cells;
        past.tokensOut /= past.cells;
        past.agentS /= past.cells;
    }
    if (past.evaluations > 0)
        past.evalS /= past.evaluations;
    return past;
}

/// How the round's policy is replayed without storing anything, and its
/// default β: the version the round would run, read from the project.
struct ReplayPolicy
{
    QString policy;                   ///< a name or builtin:NAME
    PolicyVersionId versionId = 0;
    std::optional<double> defaultBeta;
    QString description;
    QString problem;                  ///< why the round could not run it, empty when it can
};

ReplayPolicy replayPolicyOf(ProjectStore *store, const PolicyChoice &choice)
{
    ReplayPolicy r;
    QList<PolicyVersion> versions;
    if (store) {
        if (const StoreResult<QList<PolicyVersion>> v = await(store->policyVersions()); v.ok())
            versions = *v.value;
    }
    const auto fromVersion = [&](const PolicyVersion &v) {
        r.versionId = v.id;
        r.description = QStringLiteral("version %1").arg(v.name);
        if (const Result<std::unique_ptr<Policy>> p = ProjectPolicies::specFor(v).create(); p.ok())
            r.defaultBeta = (*p.value)->defaultBeta();
    };
    const auto fromBuiltin = [&](const QString &name) {
        r.policy = QStringLiteral("builtin:") + name;
        r.description = r.policy;
        if (const Result<std::unique_ptr<Policy>> p = PolicySpec::builtin(name).create(); p.ok())
            r.defaultBeta = (*p.value)->defaultBeta();
        else
            r.problem = p.error;
    };
    switch (choice.kind()) {
    case PolicyChoice::Kind::Builtin:
        fromBuiltin(choice.name());
        break;
    case PolicyChoice::Kind::Stored: {
        const PolicyVersion *byName = nullptr;
        const PolicyVersion *byId = nullptr;
        for (const PolicyVersion &v : std::as_const(versions)) {
            if (v.name == choice.name())
                byName = &v;
            if (QString::number(v.id) == choice.name())
                byId = &v;
        }
        if (byName || byId)
            fromVersion(byName ? *byName : *byId);
        else
            r.problem = QStringLiteral("no policy version '%1' in the project").arg(choice.name());
        break;
    }
    case PolicyChoice::Kind::Manual:
        r.description = QStringLiteral("manual");
        break;
    case PolicyChoice::Kind::LatestApproved: {
        QList<Approval> approvals;
        if (store) {
            if (const StoreResult<QList<Approval>> a = await(store->approvals()); a.ok())
                approvals = *a.value;
        }
        const Approval *newest = PolicyResolution::newestApproval(approvals);
        const auto it = newest ? std::find_if(versions.cbegin(), versions.cend(),
                                              [&](const PolicyVersion &v) { return v.id == newest->version; })
                               : versions.cend();
        if (it != versions.cend()) {
            fromVersion(*it);
            r.description = QStringLiteral("latest approved version %1").arg(it->name);
        } else {
            fromBuiltin(QStringLiteral("portfolio"));
        }
        break;
    }
    }
    return r;
}

/// The prompt of the first attempt, in tokens (about 4 characters each).
double promptTokens(const AgentConfig &config, const Task &task)
{
    const Result<ExplorationPrompt> prompt = ExplorationPrompt::load(config);
    if (!prompt.ok())
        return double(task.statement.size()) / 4.0;
    AttemptContext context;
    context.task = task.name;
    context.taskStatement = task.statement;
    context.programFileName = task.programFileName;
    context.cellId = QStringLiteral("b0a0");
    context.baselineDir = task.directory;
    QFile initial(task.initialProgram);
    if (initial.open(QIODevice::ReadOnly))
        context.parentProgram = QString::fromUtf8(initial.readAll());
    const ChatRequest request = prompt.value->build(context, ExplorationPrompt::Mode::Chat, config.promptBudgetChars);
    return double(request.system.size() + request.user.size()) / 4.0;
}

PreflightRange rangeOf(const QList<double> &values)
{
    PreflightRange r;
    if (values.isEmpty())
        return r;
    double sum = 0;
    for (const double v : values)
        sum += v;
    r.mean = sum / double(values.size());
    r.p10 = RoundPreflight::percentile(values, 10);
    r.p90 = RoundPreflight::percentile(values, 90);
    return r;
}

/// The W the estimate replays with: the round's, else (a resumed iteration)
/// the iteration's own, else the default; a resumed iteration's task fills
/// an empty one in `config`.
int resumedWorkers(ProjectStore &store, bool open, RoundConfig &config)
{
    std::optional<int> asked = config.workers;
    if (config.resume != 0 && open) {
        if (const StoreResult<QList<IterationInfo>> list = await(store.iterations()); list.ok()) {
            for (const IterationInfo &it : *list.value) {
                if (it.id != config.resume)
                    continue;
                if (config.task.isEmpty())
                    config.task = it.task.value_or(QString());
                if (!asked)
                    asked = it.maxParallelism.value_or(RoundConfig::DefaultWorkers);
            }
        }
    }
    return std::max(1, asked.value_or(RoundConfig::DefaultWorkers));
}

/// The task's initial program, evaluated once on the backend; `evalS` is how
/// long it took.
PreflightCheck checkEvaluator(const Result<Task> &task, const Result<std::shared_ptr<EvaluationBackend>> &backend,
                              const RoundConfig &config, double *evalS)
{
    PreflightCheck evaluator{QStringLiteral("evaluator"), false, {}};
    if (!task.ok()) {
        evaluator.detail = task.error;
        return evaluator;
    }
    if (!backend.ok()) {
        evaluator.detail = QStringLiteral("not run: the backend is not ready");
        return evaluator;
    }
    EvaluationRequest request;
    request.task = task.value->name;
    request.candidatePath = task.value->initialProgram;
    request.sandboxMode = config.sandboxMode;
    const std::atomic_bool never{false};
    QElapsedTimer clock;
    clock.start();
    const EvaluationResult r = (*backend.value)->evaluate(request, never);
    *evalS = double(clock.nsecsElapsed()) / 1e9;
    evaluator.ok = r.score.has_value() && std::isfinite(*r.score);
    evaluator.detail = evaluator.ok
                           ? QStringLiteral("initial program %1: score %2 in %3 s")
                                 .arg(QFileInfo(task.value->initialProgram).fileName())
                                 .arg(*r.score, 0, 'g', 8)
                                 .arg(seconds(*evalS))
                           : QStringLiteral("the initial program %1 fails (%2): %3")
                                 .arg(QFileInfo(task.value->initialProgram).fileName(), r.failClass,
                                      r.error.value_or(QStringLiteral("no score")).trimmed().section(QLatin1Char('\n'), -1));
    return evaluator;
}

/// The round's policy replayed in the project's worlds (nothing stored): the
/// calls of each episode, capped at the round's cap, or why there are none.
struct ReplayedCalls
{
    QList<double> calls;
    QString noWorlds;  ///< why nothing was replayed
    int worlds = 0;
    int completions = 0;
};

ReplayedCalls replayCalls(const QString &projectPath, const RoundConfig &config, const ReplayPolicy &policy, int workers,
                          double beta)
{
    ReplayedCalls out;
    if (config.policy.kind() == PolicyChoice::Kind::Manual) {
        out.noWorlds = QStringLiteral("a manual round: a person picks every batch");
        return out;
    }
    if (!policy.problem.isEmpty()) {
        out.noWorlds = QStringLiteral("the policy cannot run");
        return out;
    }
    if (!QFileInfo::exists(projectPath)) {
        out.noWorlds = QStringLiteral("the project does not exist yet");
        return out;
    }
    ProjectReplayRequest request;
    request.project = projectPath;
    request.policy = policy.policy;
    request.versionId = policy.versionId;
    request.noStore = true;
    request.overrides.workers = workers;
    request.overrides.betas = QList<double>{beta};
    if (config.maxRounds)
        request.overrides.rounds = *config.maxRounds;
    const Result<ProjectReplayOutcome> replayed = ProjectReplay::run(request);
    if (!replayed.ok()) {
        out.noWorlds = replayed.error;
        return out;
    }
    out.worlds = int(replayed.value->worlds.size());
    out.completions = replayed.value->result.completions;
    for (const SweepResult &s : replayed.value->result.worlds) {
        for (const EpisodeResult &episode : s.episodes) {
            if (episode.ok()) {
                double n = episode.calls;
                if (config.maxCalls)
                    n = std::min(n, double(*config.maxCalls));
                out.calls.append(n);
            }
        }
    }
    if (out.calls.isEmpty())
        out.noWorlds = replayed.value->result.firstError();
    return out;
}

/// The calls of the estimate: the replayed episodes', else the bound the
/// round's own limits set. Returns the calls each cost is estimated over.
QList<double> estimateCalls(PreflightEstimate &e, const ReplayedCalls &replayed, const RoundConfig &config,
                            const ReplayPolicy &policy, double beta, int workers)
{
    if (!replayed.calls.isEmpty()) {
        e.worlds = int(replayed.calls.size());
        e.calls = rangeOf(replayed.calls);
        // Episodes, not worlds: under the imagined valuation each world is C completions.
        const int worlds = replayed.worlds;
        const QString over = QStringLiteral("%1 replay world%2").arg(worlds).arg(worlds == 1 ? QString() : QStringLiteral("s"))
                             + (replayed.completions > 0 ? QStringLiteral(" × %1 imagined completions").arg(replayed.completions)
                                                         : QString());
        e.callsBasis = QStringLiteral("%1 replayed over %2 at β %3, W %4%5")
                           .arg(policy.description.isEmpty() ? policy.policy : policy.description, over)
                           .arg(beta)
                           .arg(workers)
                           .arg(config.maxCalls ? QStringLiteral(", capped at %1 calls").arg(*config.maxCalls) : QString());
        return replayed.calls;
    }
    // No world to replay: the round's own limits bound it.
    double bound = double(config.fallbackGrid.branches) * double(config.fallbackGrid.refinements);
    QString why = QStringLiteral("the fallback grid's %1 cells").arg(qRound64(bound));
    if (config.maxRounds && double(*config.maxRounds) * workers < bound) {
        bound = double(*config.maxRounds) * workers;
        why = QStringLiteral("the round limit %1 × W %2").arg(*config.maxRounds).arg(workers);
    }
    if (config.maxCalls && double(*config.maxCalls) < bound) {
        bound = double(*config.maxCalls);
        why = QStringLiteral("the cap of %1 calls").arg(*config.maxCalls);
    }
    e.calls = PreflightRange{bound, bound, bound};
    e.callsBasis =
        QStringLiteral("no replay world (%1): at most %2 calls, from %3").arg(replayed.noWorlds).arg(qRound64(bound)).arg(why);
    return {bound};
}

/// Tokens per call: none for the built-in agent, the past cells' mean, else
/// the first prompt's size and a default answer.
void estimateTokens(PreflightEstimate &e, const RoundConfig &config, const PastCalls &past, const Result<Task> &task)
{
    const QString &model = e.model;
    if (config.agent.kind == QLatin1String("builtin")) {
        e.tokensBasis = QStringLiteral("the built-in agent uses no tokens");
    } else if (past.cells > 0) {
        e.tokensInPerCall = past.tokensIn;
        e.tokensOutPerCall = past.tokensOut;
        e.tokensBasis = QStringLiteral("mean of %1 past cell%2 of %3 %4")
                            .arg(past.cells)
                            .arg(past.cells == 1 ? QString() : QStringLiteral("s"))
                            .arg(config.agent.kind, model);
    } else {
        e.tokensInPerCall = task.ok() ? promptTokens(config.agent, *task.value) : 0.0;
        e.tokensOutPerCall = RoundPreflight::defaultAnswerTokens;
        e.tokensBasis = QStringLiteral("no past cell of %1 %2: the first prompt's size (4 characters a token) and a "
                                       "default answer of %3 tokens")
                            .arg(config.agent.kind, model)
                            .arg(RoundPreflight::defaultAnswerTokens);
    }
}

/// USD (the price table) and seconds (⌈calls / W⌉ × an evaluation and an
/// agent call) over each of `calls`.
void estimateCosts(PreflightEstimate &e, const RoundConfig &config, const PastCalls &past, double evalS, int workers,
                   const QList<double> &calls)
{
    const QString &model = e.model;
    const PriceTable prices = PriceTable::current();
    const double usdPerCall = prices.usd(model, qRound64(e.tokensInPerCall), qRound64(e.tokensOutPerCall));
    if (const std::optional<ModelPrice> price = prices.priceFor(model)) {
        e.usdBasis = QStringLiteral("%1 at %2 + %3 USD per million tokens in + out (price table)")
                         .arg(price->model)
                         .arg(price->inputPerMillion)
                         .arg(price->outputPerMillion);
    } else {
        e.usdBasis = model.isEmpty() || config.agent.kind == QLatin1String("builtin")
                         ? QStringLiteral("no priced model")
                         : QStringLiteral("%1 has no price in the price table: counted as 0").arg(model);
    }
    // An evaluation takes what the task's stored evaluations took on average; the initial program's one only without them.
    const double evaluationS = past.evaluations > 0 ? past.evalS : evalS;
    const double perCallS = evaluationS + past.agentS;
    const QString evaluationBasis =
        past.evaluations > 0 ? QStringLiteral("the mean of the task's %1 stored evaluation%2").arg(past.evaluations).arg(past.evaluations == 1 ? QString() : QStringLiteral("s"))
                             : QStringLiteral("the initial program's; the task has no stored evaluation");
    e.secondsBasis = QStringLiteral("⌈calls / W %1⌉ × (evaluation %2 s, %3, + agent %4 s%5)")
                         .arg(workers)
                         .arg(seconds(evaluationS))
                         .arg(evaluationBasis)
                         .arg(seconds(past.agentS))
                         .arg(past.cells > 0 ? QStringLiteral(", the past cells' mean") : QStringLiteral(": no past cell tells"));
    QList<double> usd, time;
    for (const double n : calls) {
        usd.append(n * usdPerCall);
        time.append(std::ceil(n / double(workers)) * perCallS);
    }
    e.usd = rangeOf(usd);
    e.seconds = rangeOf(time);
}

} // namespace

QJsonObject PreflightRange::toJson() const
{
    return {{QStringLiteral("mean"), mean}, {QStringLiteral("p10"), p10}, {QStringLiteral("p90"), p90}};
}

QJsonObject PreflightEstimate::toJson() const
{
    QJsonObject c = calls.toJson();
    c.insert(QStringLiteral("worlds"), worlds);
    return {{QStringLiteral("calls"), c},
            {QStringLiteral("usd"), usd.toJson()},
            {QStringLiteral("seconds"), seconds.toJson()},
            {QStringLiteral("tokens_per_call"),
             QJsonObject{{QStringLiteral("in"), tokensInPerCall}, {QStringLiteral("out"), tokensOutPerCall}, {QStringLiteral("model"), model}}},
            {QStringLiteral("basis"),
             QJsonObject{{QStringLiteral("calls"), callsBasis},
                         {QStringLiteral("tokens"), tokensBasis},
                         {QStringLiteral("usd"), usdBasis},
                         {QStringLiteral("seconds"), secondsBasis}}}};
}

bool PreflightReport::ok() const
{
    return std::all_of(checks.cbegin(), checks.cend(), [](const PreflightCheck &c) { return c.ok; });
}

QStringList PreflightReport::failed() const
{
    QStringList names;
    for (const PreflightCheck &c : checks) {
        if (!c.ok)
            names.append(c.name);
    }
    return names;
}

QJsonObject PreflightReport::toJson() const
{
    QJsonArray list;
    for (const PreflightCheck &c : checks)
        list.append(QJsonObject{{QStringLiteral("name"), c.name}, {QStringLiteral("ok"), c.ok}, {QStringLiteral("detail"), c.detail}});
    QJsonObject o{{QStringLiteral("ok"), ok()}, {QStringLiteral("checks"), list}};
    o.insert(QStringLiteral("estimate"), estimate ? QJsonValue(estimate->toJson()) : QJsonValue());
    return o;
}

QString PreflightReport::toText() const
{
    QString text;
    for (const PreflightCheck &c : checks)
        text += QStringLiteral("%1 %2: %3\n").arg(c.ok ? QStringLiteral("ok    ") : QStringLiteral("FAILED"), c.name, c.detail);
    if (estimate) {
        const PreflightEstimate &e = *estimate;
        const auto range = [](const PreflightRange &r, int decimals) {
            return QStringLiteral("%1 (p10 %2, p90 %3)")
                .arg(r.mean, 0, 'f', decimals)
                .arg(r.p10, 0, 'f', decimals)
                .arg(r.p90, 0, 'f', decimals);
        };
        text += QStringLiteral("\nestimate\n");
        text += QStringLiteral("  calls    %1: %2\n").arg(range(e.calls, 1), e.callsBasis);
        text += QStringLiteral("  tokens   %1 in + %2 out per call: %3\n")
                    .arg(qRound64(e.tokensInPerCall))
                    .arg(qRound64(e.tokensOutPerCall))
                    .arg(e.tokensBasis);
        text += QStringLiteral("  usd      %1: %2\n").arg(range(e.usd, 2), e.usdBasis);
        text += QStringLiteral("  seconds  %1: %2\n").arg(range(e.seconds, 0), e.secondsBasis);
    }
    const QStringList bad = failed();
    text += bad.isEmpty() ? QStringLiteral("\nready: every check passed\n")
                          : QStringLiteral("\nnot ready: %1 failed\n").arg(bad.join(QStringLiteral(", ")));
    return text;
}

namespace RoundPreflight {

double percentile(QList<double> values, double p)
{
    if (values.isEmpty())
        return 0.0;
    std::sort(values.begin(), values.end());
    const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(values.size() - 1);
    const qsizetype low = qsizetype(std::floor(rank));
    const qsizetype high = std::min(low + 1, values.size() - 1);
    return values.at(low) + (rank - double(low)) * (values.at(high) - values.at(low));
}

PreflightReport run(const RoundOptions &options, const QString &projectPath, const Progress &progress)
{
    const auto say = [&progress](const QString &line) {
        if (progress)
            progress(line);
    };
    PreflightReport report;
    RoundConfig config = options.round;

    say(QStringLiteral("checking the project"));
    report.checks.append(checkProject(projectPath));

    // The project, read only: a resumed iteration's task and W, the past
    // cells, the policy. Nothing is written.
    ProjectStore store;
    bool open = false;
    if (QFileInfo::exists(projectPath))
        open = await(store.openReadOnly(projectPath)).ok();
    const int workers = resumedWorkers(store, open, config);

    const Result<Task> task = Task::resolve(config.task);
    say(QStringLiteral("checking the agent"));
    QString model;
    if (!task.ok()) {
        report.checks.append(PreflightCheck{QStringLiteral("agent"), false, QStringLiteral("no task to make the agent for: ") + task.error});
    } else {
        report.checks.append(checkAgent(config.agent, task.value->name, &model));
    }

    say(QStringLiteral("checking the backend"));
    const Result<std::shared_ptr<EvaluationBackend>> backend = RoundSession::checkedBackend(options.slurm);
    report.checks.append(PreflightCheck{QStringLiteral("backend"), backend.ok(),
                                        backend.ok() ? QStringLiteral("%1 backend ready").arg((*backend.value)->name())
                                                     : backend.error});

    say(QStringLiteral("evaluating the initial program"));
    double evalS = 0.0;
    report.checks.append(checkEvaluator(task, backend, config, &evalS));

    // The estimate.
    say(QStringLiteral("estimating the calls"));
    PreflightEstimate e;
    e.model = model;
    const ReplayPolicy policy = replayPolicyOf(open ? &store : nullptr, config.policy);
    report.checks.append(PreflightCheck{QStringLiteral("policy"), policy.problem.isEmpty(),
                                        policy.problem.isEmpty() ? policy.description : policy.problem});
    const double beta = config.beta ? *config.beta : policy.defaultBeta.value_or(0.5);
    PastCalls past;
    if (open)
        past = pastCalls(store, config.agent.kind, model, task.ok() ? task.value->name : config.task);
    if (open)
        await(store.close());

    const QList<double> calls =
        estimateCalls(e, replayCalls(projectPath, config, policy, workers, beta), config, policy, beta, workers);
    estimateTokens(e, config, past, task);
    estimateCosts(e, config, past, evalS, workers, calls);
    report.estimate = e;
    return report;
}

} // namespace RoundPreflight

} // namespace dreamrsi
