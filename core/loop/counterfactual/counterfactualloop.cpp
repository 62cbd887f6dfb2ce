#include "counterfactualloop.h"

#include "model/meanci.h"
#include "model/splitmix64.h"

#include "model/treejson.h"
#include "policy/builtinpolicies.h"
#include "policy/policyspec.h"
#include "project/policyresolution.h"
#include "project/projectpolicies.h"
#include "project/valuationworlds.h"
#include "replay/replayengine.h"
#include "replay/scoring.h"

#include <QFile>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

/// splitmix64, the generator worldOrder() documents.
quint64 splitmix(quint64 &state)
{
    SplitMix64 g(state);
    const quint64 z = g.next();
    state = g.state();
    return z;
}

/// The starting version: today's built-in or the file's script, named by
/// the argument (PolicyResolution::versionOfArgument, the one reading of a
/// policy argument).
Result<PolicyVersion> startingVersion(const QString &argument)
{
    return PolicyResolution::versionOfArgument(argument, {}, argument);
}

/// How a version is deployed: by the one rule of every replay of a version
/// (ProjectPolicies::specFor: its code decides, its name and origin play no
/// part) under the loop's script limits, Math.random seeded as `replay --seed`.
PolicySpec specOf(const PolicyVersion &v, const CounterfactualSettings &s)
{
    PolicySpec spec = ProjectPolicies::specFor(v, s.limits);
    if (s.episodeSeed)
        spec.setRandomSeed(*s.episodeSeed);
    return spec;
}

/// Mean attainment over the scorable worlds of `result` at the grid β
/// nearest to `beta`; none when no world could be scored.
std::optional<double> meanAttainmentAt(const ReplayResult &result, double beta)
{
    double sum = 0.0;
    int n = 0;
    for (const SweepResult &s : result.worlds) {
        const EpisodeResult *nearest = s.episodeNearest(beta);
        if (!s.scorable || !s.ok() || !nearest)
            continue;
        sum += nearest->attainment;
        ++n;
    }
    if (n == 0)
        return std::nullopt;
    return sum / n;
}

struct MeanInterval
{
    std::optional<double> mean;
    std::optional<double> ci95;
};

/// The mean of every value of every repeat, and 1.96 × the standard error of
/// the per-repeat means (none with fewer than two repeats that have values).
MeanInterval meanAndInterval(const QList<QList<double>> &perRepeat)
{
    MeanInterval out;
    double sum = 0.0;
    qsizetype count = 0;
    QList<double> means;
    for (const QList<double> &values : perRepeat) {
        if (values.isEmpty())
            continue;
        double s = 0.0;
        for (const double v : values)
            s += v;
        sum += s;
        count += values.size();
        means.append(s / double(values.size()));
    }
    if (count > 0)
        out.mean = sum / double(count);
    out.ci95 = meanCi95(means).ci95;
    return out;
}

/// True for the arms that dream.
bool dreams(CounterfactualArm arm)
{
    return arm == CounterfactualArm::Dream || arm == CounterfactualArm::Guarded;
}

/// The probes of `arm`'s deployments: the settings' for the dreaming arms
/// and fixed_probe, none for fixed exploration.
ProbeSetting probeOf(CounterfactualArm arm, const CounterfactualSettings &settings)
{
    return arm == CounterfactualArm::Fixed ? ProbeSetting::off() : settings.probe;
}

QJsonValue orNull(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

/// The names of the worlds: the in-memory worlds' names, else the paths.
QStringList worldNames(const CounterfactualSettings &settings)
{
    if (settings.worlds.isEmpty())
        return settings.worldPaths;
    QStringList names;
    for (const ReplayWorld &w : settings.worlds)
        names.append(w.name);
    return names;
}

/// The probes after a deployment (docs/online.md#probes): while the budget
/// lasts, the world model fitted on the history and the cells revealed so far
/// names the next blind stratum the grid allows (Probes::next) and the
/// recorded world's cell there is revealed; a cell the world does not hold is
/// passed over. `revealed` grows by the probes' ids; `reasons` gets each
/// probe's reason by cell id.
void probe(const DiscoveryTree &world, const QList<DreamWorld> &history, int budget, QStringList *revealed,
           QHash<QString, QString> *reasons, CounterfactualIteration *it)
{
    QList<ReplayWorld> worlds;
    for (const DreamWorld &w : history)
        worlds.append(w.world);
    // The calls the recorded world never made: each branch's attempt past its
    // last (so no probe chain sets off towards a depth the world lacks).
    QSet<QString> unavailable;
    for (const DiscoveryTree::Branch &b : world.branches())
        unavailable.insert(QStringLiteral("b%1a%2").arg(b.id).arg(b.cells.size()));
    while (it->probeCalls < budget) {
        const auto episode = std::make_shared<const DiscoveryTree>(CounterfactualLoop::revealedTree(world, *revealed, *reasons));
        QList<ReplayWorld> withEpisode = worlds;
        withEpisode.append(ReplayWorld{QStringLiteral("this deployment"), episode});
        const WorldModels models = ValuationWorlds::modelsOf(withEpisode);
        const WorldModel &model = models.of(int(withEpisode.size() - 1));
        const std::optional<ProbeCall> call = Probes::next(*episode, model, model.options().directions, unavailable,
                                                            budget - it->probeCalls);
        if (!call)
            return;
        const int branch = world.branchIndex(call->branch);
        if (branch < 0 || call->attempt >= world.branches().at(branch).cells.size()) {
            unavailable.insert(call->cellId()); // the recorded world never made that call
            continue;
        }
        const QString id = world.cells().at(world.branches().at(branch).cells.at(call->attempt)).id;
        revealed->append(id);
        reasons->insert(id, call->reason);
        it->probes.append(QStringLiteral("%1: %2").arg(id, call->reason));
        ++it->probeCalls;
    }
}

/// The deployment of iteration `it` on `world`: exactly one replay episode
/// of `current`, then the probe calls `probes` allows after `history` at
/// most (ProbeSetting::budgetAfter); the cells revealed join `history` as
/// the iteration's tree.
void deploy(const PolicyVersion &current, const std::shared_ptr<const DiscoveryTree> &complete, const CounterfactualSettings &settings,
            const ProbeSetting &probes, CounterfactualIteration *it, QList<DreamWorld> *history, QList<ReplayWorld> *completeWorlds)
{
    Result<std::unique_ptr<Policy>> made = specOf(current, settings).create();
    if (!made) {
        // A dreamed version replayed cleanly, so this only happens
        // for a script that breaks in a way replay never reached.
        it->error = made.error;
        return;
    }
    const std::unique_ptr<Policy> &policy = *made.value;
    it->beta = settings.beta.value_or(policy->defaultBeta().value_or(0.5));
    ReplayOptions options;
    options.workers = settings.workers;
    options.maxRounds = settings.maxRounds;
    const DiscoveryTree &world = *complete;
    const EpisodeResult episode = ReplayEngine::runEpisode(world, *policy, it->beta, options);
    it->rounds = episode.rounds;
    it->error = episode.error;
    QStringList revealed = episode.revealed;
    QHash<QString, QString> reasons;
    const int probeBudget = probes.budgetAfter(history->size(), [&history] {
        return std::any_of(history->cbegin(), history->cend(),
                           [](const DreamWorld &w) { return Probes::refiningPaid(*w.world.tree); });
    });
    if (probeBudget > 0 && episode.ok())
        probe(world, *history, probeBudget, &revealed, &reasons, it);
    it->calls = int(revealed.size());
    double bestEffective = episode.best;
    for (const QString &id : std::as_const(revealed)) {
        const Cell &cell = world.cells().at(world.indexOfId(id));
        const std::optional<double> score = cell.score;
        if (score && std::isfinite(*score) && (!it->bestScore || *score > *it->bestScore))
            it->bestScore = score;
        bestEffective = std::max(bestEffective, cell.effectiveScore());
    }
    if (world.isScorable())
        it->attainment = it->probeCalls > 0 ? Scoring::attainment(bestEffective, world.bestEffectiveScore()) : episode.attainment;
    const int t = it->iteration;
    history->append(DreamWorld{IterationId(t), ReplayWorld{QStringLiteral("iteration %1").arg(t),
                                                           std::make_shared<const DiscoveryTree>(
                                                               CounterfactualLoop::revealedTree(world, revealed, reasons))}});
    completeWorlds->append(ReplayWorld{QStringLiteral("iteration %1").arg(t), complete});
}

/// The dream after iteration `t` of repeat `r`: M versions, in memory.
DreamSettings dreamSettings(const CounterfactualSettings &settings, int r, int t, double deployedBeta)
{
    DreamSettings ds;
    ds.versions = settings.versions;
    ds.replay.workers = settings.workers;
    ds.replay.lambda = settings.lambda;
    ds.replay.betas = settings.betas;
    ds.replay.rounds = settings.maxRounds;
    ds.replay.valuation = settings.valuation;
    ds.replay.completions = settings.completions;
    ds.replay.rule = settings.rule;
    ds.limits = settings.limits;
    ds.seed = settings.seed * 0x100000001B3ull + quint64(r) * 1009u + quint64(t);
    // The completions of the dream after iteration t of repeat r.
    ds.imagineSeed = settings.seed + 1000u * quint64(r) + quint64(t);
    ds.bothValuations = false;
    ds.inProcess = true;
    ds.deployedBeta = settings.beta.value_or(deployedBeta);
    ds.floorCheck = settings.floor;
    return ds;
}

/// The guard (CounterfactualArm::Guarded): a version must reach, on the
/// history, the mean attainment the deployed version reaches at the
/// deployment β; among those, the best mean value. The version chosen (0:
/// the deployed one); a note on `it` when the guard refused the proposal
/// `chosen`.
int guardedChoice(const DreamReport &dream, int chosen, const CounterfactualSettings &settings, CounterfactualIteration *it)
{
    const DevelopedVersion &deployed = dream.versions.at(0).developed;
    const std::optional<double> floor =
        deployed.result ? meanAttainmentAt(*deployed.result, it->beta) : std::optional<double>();
    int best = 0;
    for (qsizetype i = 1; i < dream.versions.size(); ++i) {
        const DevelopedVersion &d = dream.versions.at(i).developed;
        if (!d.value || !d.error.isEmpty() || !d.result)
            continue;
        const std::optional<double> a = meanAttainmentAt(*d.result, it->beta);
        if (floor && (!a || *a < *floor - settings.guardTolerance))
            continue;
        const DevelopedVersion &b = dream.versions.at(best).developed;
        if (!b.value || *d.value > *b.value)
            best = int(i);
    }
    if (best != chosen)
        it->approvalNote = QStringLiteral("the guard refused %1: it reaches less of the history's quality at β %2")
                               .arg(*it->proposed)
                               .arg(it->beta);
    return best;
}

/// What a dreaming arm's dreams valued versions over (a run and its summary say it).
void insertValuation(QJsonObject *o, const CounterfactualSettings &settings)
{
    o->insert(QStringLiteral("valuation"), counterfactualValuationName(settings));
    o->insert(QStringLiteral("completions"), !settings.oracle && settings.valuation == Valuation::Imagined ? QJsonValue(settings.completions)
                                                                                                        : QJsonValue(QJsonValue::Null));
}

QJsonObject iterationJson(const CounterfactualIteration &it)
{
    QJsonObject o;
    o.insert(QStringLiteral("iteration"), it.iteration);
    o.insert(QStringLiteral("world"), it.world);
    o.insert(QStringLiteral("policy_version"), it.policyVersion);
    o.insert(QStringLiteral("beta"), it.beta);
    o.insert(QStringLiteral("calls"), it.calls);
    if (it.probeCalls > 0) {
        o.insert(QStringLiteral("probe_calls"), it.probeCalls);
        o.insert(QStringLiteral("probes"), QJsonArray::fromStringList(it.probes));
    }
    o.insert(QStringLiteral("rounds"), it.rounds);
    o.insert(QStringLiteral("best_score"), orNull(it.bestScore));
    o.insert(QStringLiteral("attainment"), orNull(it.attainment));
    o.insert(QStringLiteral("cumulative_calls"), double(it.cumulativeCalls));
    if (!it.error.isEmpty())
        o.insert(QStringLiteral("error"), it.error);
    if (it.proposed)
        o.insert(QStringLiteral("proposed"), *it.proposed);
    if (it.approved)
        o.insert(QStringLiteral("approved"), *it.approved);
    if (!it.approvalNote.isEmpty())
        o.insert(QStringLiteral("approval_note"), it.approvalNote);
    if (it.candidates > 0)
        o.insert(QStringLiteral("candidates"), QJsonObject{{QStringLiteral("total"), it.candidates},
                                                           {QStringLiteral("distinct"), it.distinctCandidates},
                                                           {QStringLiteral("inert_at_deployed_beta"), it.inertCandidates}});
    return o;
}

QJsonObject runJson(const CounterfactualRun &run, const CounterfactualSettings &settings)
{
    QJsonArray iterations;
    for (const CounterfactualIteration &it : run.iterations)
        iterations.append(iterationJson(it));
    QJsonObject r;
    r.insert(QStringLiteral("fixed"), !dreams(run.arm));
    r.insert(QStringLiteral("arm"), counterfactualArmName(run.arm));
    r.insert(QStringLiteral("repeat"), run.repeat);
    if (dreams(run.arm))
        insertValuation(&r, settings);
    r.insert(QStringLiteral("probe"), probeOf(run.arm, settings).name());
    r.insert(QStringLiteral("iterations"), iterations);
    return r;
}

/// The fixed arm's final best score, by repeat: what the dreaming arms race to.
QHash<int, std::optional<double>> fixedFinalBests(const CounterfactualReport &report)
{
    QHash<int, std::optional<double>> fixedFinalBest;
    for (const CounterfactualRun &run : report.runs) {
        if (run.arm != CounterfactualArm::Fixed)
            continue;
        std::optional<double> best;
        for (const CounterfactualIteration &it : run.iterations) {
            if (it.bestScore && (!best || *it.bestScore > *best))
                best = it.bestScore;
        }
        fixedFinalBest.insert(run.repeat, best);
    }
    return fixedFinalBest;
}

/// `{per_repeat, mean, reached}`: the cumulative calls at which each repeat
/// reached the fixed arm's final best (null when it did not).
QJsonObject reachJson(const QJsonArray &perRepeat, const QList<double> &reached)
{
    QJsonObject r;
    r.insert(QStringLiteral("per_repeat"), perRepeat);
    std::optional<double> mean;
    if (!reached.isEmpty()) {
        double s = 0.0;
        for (const double v : reached)
            s += v;
        mean = s / double(reached.size());
    }
    r.insert(QStringLiteral("mean"), orNull(mean));
    r.insert(QStringLiteral("reached"), qsizetype(reached.size()));
    return r;
}

/// One arm's summary over its repeats: calls and attainments of the
/// iterations, the total calls and, when the run compares with the fixed
/// arm, the calls to reach its final best (also set in `reach`).
QJsonObject armSummary(CounterfactualArm arm, const CounterfactualReport &report, const CounterfactualSettings &settings,
                       const QHash<int, std::optional<double>> &fixedFinalBest, bool compare, std::optional<QJsonObject> *reach)
{
    QList<QList<double>> calls, attainments, totals, probes;
    QJsonArray perRepeat;
    QList<double> reached;
    qint64 candidates = 0, distinct = 0, inert = 0;
    for (const CounterfactualRun &run : report.runs) {
        if (run.arm != arm)
            continue;
        QList<double> c, a, p;
        std::optional<double> bestSoFar;
        std::optional<qint64> reachedAt;
        const std::optional<double> target = fixedFinalBest.value(run.repeat);
        for (const CounterfactualIteration &it : run.iterations) {
            candidates += it.candidates;
            distinct += it.distinctCandidates;
            inert += it.inertCandidates;
            c.append(it.calls);
            p.append(it.probeCalls);
            if (it.attainment)
                a.append(*it.attainment);
            if (it.bestScore && (!bestSoFar || *it.bestScore > *bestSoFar))
                bestSoFar = it.bestScore;
            if (!reachedAt && target && bestSoFar && *bestSoFar >= *target)
                reachedAt = it.cumulativeCalls;
        }
        calls.append(c);
        attainments.append(a);
        probes.append(p);
        if (!run.iterations.isEmpty())
            totals.append(QList<double>{double(run.iterations.last().cumulativeCalls)});
        perRepeat.append(reachedAt ? QJsonValue(double(*reachedAt)) : QJsonValue(QJsonValue::Null));
        if (reachedAt)
            reached.append(double(*reachedAt));
    }
    const MeanInterval c = meanAndInterval(calls);
    const MeanInterval a = meanAndInterval(attainments);
    const MeanInterval total = meanAndInterval(totals);
    const MeanInterval probeCalls = meanAndInterval(probes);
    QJsonObject o;
    if (dreams(arm))
        insertValuation(&o, settings);
    o.insert(QStringLiteral("probe"), probeOf(arm, settings).name());
    o.insert(QStringLiteral("probe_calls_mean"), orNull(probeCalls.mean));
    o.insert(QStringLiteral("repeats"), qsizetype(calls.size()));
    o.insert(QStringLiteral("calls_mean"), orNull(c.mean));
    o.insert(QStringLiteral("calls_ci95"), orNull(c.ci95));
    o.insert(QStringLiteral("attainment_mean"), orNull(a.mean));
    o.insert(QStringLiteral("attainment_ci95"), orNull(a.ci95));
    o.insert(QStringLiteral("total_calls_mean"), orNull(total.mean));
    o.insert(QStringLiteral("total_calls_ci95"), orNull(total.ci95));
    if (candidates > 0)
        o.insert(QStringLiteral("candidates"), QJsonObject{{QStringLiteral("total"), candidates},
                                                           {QStringLiteral("distinct"), distinct},
                                                           {QStringLiteral("inert_at_deployed_beta"), inert},
                                                           {QStringLiteral("distinct_share"), double(distinct) / double(candidates)}});
    if (compare && dreams(arm)) {
        *reach = reachJson(perRepeat, reached);
        o.insert(QStringLiteral("calls_to_reach_fixed_best"), **reach);
    }
    return o;
}

QJsonObject configJson(const CounterfactualSettings &settings)
{
    QJsonObject config;
    config.insert(QStringLiteral("iterations"), settings.iterations);
    config.insert(QStringLiteral("versions"), settings.versions);
    config.insert(QStringLiteral("policy"), settings.policyArgument);
    config.insert(QStringLiteral("workers"), settings.workers);
    config.insert(QStringLiteral("rounds"), settings.maxRounds ? QJsonValue(*settings.maxRounds) : QJsonValue(QJsonValue::Null));
    config.insert(QStringLiteral("beta"), settings.beta ? QJsonValue(*settings.beta) : QJsonValue(QJsonValue::Null));
    config.insert(QStringLiteral("seed"), double(settings.seed));
    config.insert(QStringLiteral("repeats"), settings.repeats);
    config.insert(QStringLiteral("lambda"), settings.lambda);
    QJsonArray betas;
    for (const double b : settings.betas)
        betas.append(b);
    config.insert(QStringLiteral("betas"), betas);
    config.insert(QStringLiteral("valuation"), counterfactualValuationName(settings));
    config.insert(QStringLiteral("completions"), settings.completions);
    config.insert(QStringLiteral("rule"), imaginationRuleName(settings.rule));
    config.insert(QStringLiteral("probe"), settings.probe.name());
    config.insert(QStringLiteral("floor"), settings.floor);
    return config;
}

} // namespace

/// What one run (an arm of a repeat) carries from iteration to iteration.
struct CounterfactualLoop::ArmState
{
    PolicyVersion current;           ///< the version deployed next
    PolicyVersion start;             ///< the arm's first version: the dreams' floor (DreamSettings::floorVersion)
    QList<DreamWorld> history;       ///< the revealed trees so far
    QList<ReplayWorld> complete;     ///< the complete worlds behind them (the oracle valuation)
    qint64 cumulative = 0;           ///< calls so far
    int nextNumber = 1;              ///< the number of the next dreamed version
};

CounterfactualSettings CounterfactualSettings::forProject(const std::optional<ReplayConfig> &config)
{
    CounterfactualSettings s;
    s.setReplayConfig(config.value_or(ReplayConfig()));
    return s;
}

void CounterfactualSettings::setReplayConfig(const ReplayConfig &config)
{
    workers = config.workers;
    maxRounds = config.rounds;
    lambda = config.lambda;
    betas = config.betas;
    valuation = config.valuation;
    completions = config.completions;
    rule = config.rule;
}

ReplayConfig CounterfactualSettings::replayConfig() const
{
    ReplayConfig c;
    c.workers = workers;
    c.rounds = maxRounds;
    c.lambda = lambda;
    c.betas = betas;
    c.valuation = valuation;
    c.completions = completions;
    c.rule = rule;
    return c;
}

QString counterfactualValuationName(const CounterfactualSettings &settings)
{
    return settings.oracle ? QStringLiteral("oracle") : valuationName(settings.valuation);
}

QString counterfactualArmName(CounterfactualArm arm)
{
    switch (arm) {
    case CounterfactualArm::Dream:
        return QStringLiteral("dream");
    case CounterfactualArm::Guarded:
        return QStringLiteral("dream_guarded");
    case CounterfactualArm::Fixed:
        return QStringLiteral("fixed");
    case CounterfactualArm::FixedProbe:
        return QStringLiteral("fixed_probe");
    }
    return {};
}

CounterfactualLoop::CounterfactualLoop(std::shared_ptr<PolicyDeveloper> developer, QObject *parent)
    : QObject(parent)
    , m_developer(std::move(developer))
{
}

void CounterfactualLoop::stop()
{
    m_stop.store(true);
    if (Dreamer *d = m_dreamer.load())
        d->cancel();
}

QList<int> CounterfactualLoop::worldOrder(int n, int repeat, quint64 seed)
{
    QList<int> order;
    for (int i = 0; i < n; ++i)
        order.append(i);
    if (repeat == 0)
        return order;
    quint64 state = seed + quint64(repeat);
    for (int i = n - 1; i >= 1; --i) {
        const int j = int(splitmix(state) % quint64(i + 1));
        std::swap(order[i], order[j]);
    }
    return order;
}

DiscoveryTree CounterfactualLoop::revealedTree(const DiscoveryTree &world, const QStringList &revealed,
                                               const QHash<QString, QString> &probes)
{
    const QSet<QString> ids(revealed.cbegin(), revealed.cend());
    QList<Cell> cells;
    QSet<int> opened;
    for (const Cell &c : world.cells()) {
        if (!ids.contains(c.id))
            continue;
        cells.append(c);
        opened.insert(c.branch);
        if (const auto reason = probes.constFind(c.id); reason != probes.cend()) {
            cells.last().tags.append(Probes::tag());
            cells.last().payload.insert(Probes::reasonKey(), *reason);
        }
    }
    // What the recorded world says its unopened branches explore.
    TreeMeta meta = world.meta();
    QJsonObject directions;
    for (const DiscoveryTree::Branch &b : world.branches()) {
        if (opened.contains(b.id))
            continue;
        const QString tag = Imagination::branchTag(world, b.id, {});
        if (!tag.isEmpty())
            directions.insert(QString::number(b.id), tag.mid(tag.indexOf(QLatin1Char(':')) + 1));
    }
    if (!directions.isEmpty())
        meta.payload.insert(QStringLiteral("branch_directions"), directions);
    // The revealed cells of a branch are always its attempts 0 … a (an
    // episode reveals a branch's attempts in order, a probe the next one),
    // so this cannot fail.
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, cells);
    return tree ? std::move(*tree) : DiscoveryTree();
}

CounterfactualReport CounterfactualLoop::run(const CounterfactualSettings &settings)
{
    CounterfactualReport report;
    const QStringList names = worldNames(settings);
    const Result<PolicyVersion> start = startingPolicy(settings, int(names.size()));
    if (!start.ok()) {
        report.error = start.error;
        return report;
    }
    const Result<QList<std::shared_ptr<const DiscoveryTree>>> worlds = loadWorlds(settings);
    if (!worlds.ok()) {
        report.error = worlds.error;
        return report;
    }

    const int total = settings.repeats * int(settings.arms.size()) * settings.iterations;
    int done = 0;
    emit progress(0, total);
    for (int r = 0; r < settings.repeats; ++r) {
        const QList<int> order = worldOrder(int(names.size()), r, settings.seed);
        for (const CounterfactualArm arm : settings.arms) {
            CounterfactualRun run;
            run.arm = arm;
            run.repeat = r;
            const bool ended = runArm(settings, *start.value, names, *worlds.value, order, &run, &done, total);
            report.runs.append(run);
            if (!ended) {
                report.stopped = true;
                return report;
            }
        }
    }
    return report;
}

Result<PolicyVersion> CounterfactualLoop::startingPolicy(const CounterfactualSettings &settings, int n) const
{
    if (settings.iterations < 1 || settings.iterations > n)
        return Result<PolicyVersion>::failure(
            QStringLiteral("the number of iterations (%1) must be between 1 and the number of worlds (%2)")
                .arg(settings.iterations)
                .arg(n));
    if (settings.repeats < 1 || settings.versions < 1 || settings.workers < 1)
        return Result<PolicyVersion>::failure(QStringLiteral("repeats, versions and workers must be at least 1"));
    const bool dreaming = settings.arms.contains(CounterfactualArm::Dream) || settings.arms.contains(CounterfactualArm::Guarded);
    if (dreaming && !m_developer)
        return Result<PolicyVersion>::failure(QStringLiteral("dreaming needs a policy developer"));
    Result<PolicyVersion> start = startingVersion(settings.policyArgument);
    if (!start.ok())
        return start;
    if (const Result<std::unique_ptr<Policy>> compiled = specOf(*start.value, settings).create(); !compiled)
        return Result<PolicyVersion>::failure(
            QStringLiteral("the policy %1 cannot run: %2").arg(settings.policyArgument, compiled.error));
    return start;
}

Result<QList<std::shared_ptr<const DiscoveryTree>>> CounterfactualLoop::loadWorlds(const CounterfactualSettings &settings)
{
    using Worlds = QList<std::shared_ptr<const DiscoveryTree>>;
    Worlds worlds;
    if (!settings.worlds.isEmpty()) {
        for (const ReplayWorld &w : settings.worlds) {
            if (!w.tree)
                return Result<Worlds>::failure(QStringLiteral("world %1 holds no tree").arg(w.name));
            worlds.append(w.tree);
        }
        return Result<Worlds>::success(worlds);
    }
    emit message(QStringLiteral("reading %1 worlds").arg(settings.worldPaths.size()));
    QList<TreeJson::ParseResult> read = TreeJson::readFiles(settings.worldPaths);
    for (TreeJson::ParseResult &r : read) {
        if (!r.ok())
            return Result<Worlds>::failure(r.error.message);
        worlds.append(std::make_shared<const DiscoveryTree>(std::move(*r.tree)));
    }
    return Result<Worlds>::success(worlds);
}

bool CounterfactualLoop::runArm(const CounterfactualSettings &settings, const PolicyVersion &start, const QStringList &names,
                                const QList<std::shared_ptr<const DiscoveryTree>> &worlds, const QList<int> &order,
                                CounterfactualRun *run, int *done, int total)
{
    ArmState state;
    state.current = start;
    state.start = start;
    for (int t = 1; t <= settings.iterations; ++t) {
        if (m_stop.load())
            return false;
        const int w = order.at(t - 1);
        CounterfactualIteration it;
        it.iteration = t;
        it.world = names.at(w);
        it.policyVersion = state.current.name;
        deploy(state.current, worlds.at(w), settings, probeOf(run->arm, settings), &it, &state.history,
               &state.complete);
        state.cumulative += it.calls;
        it.cumulativeCalls = state.cumulative;
        announce(settings, run->arm, run->repeat, state.current, it);
        // The dream after every iteration but the last (the dreaming arms).
        if (dreams(run->arm) && t < settings.iterations && !dreamAfter(settings, run->arm, run->repeat, &it, &state)) {
            run->iterations.append(it);
            return false;
        }
        run->iterations.append(it);
        emit progress(++*done, total);
    }
    return true;
}

void CounterfactualLoop::announce(const CounterfactualSettings &settings, CounterfactualArm arm, int r,
                                  const PolicyVersion &current, const CounterfactualIteration &it)
{
    emit message(QStringLiteral("%1 repeat %2 iteration %3/%4: %5 on %6 (β %7): %8 calls%11, best %9%10")
                     .arg(counterfactualArmName(arm))
                     .arg(r)
                     .arg(it.iteration)
                     .arg(settings.iterations)
                     .arg(current.name, it.world)
                     .arg(it.beta)
                     .arg(it.calls)
                     .arg(it.bestScore ? QString::number(*it.bestScore, 'g', 6) : QStringLiteral("none"),
                          it.error.isEmpty() ? QString() : QStringLiteral(" (policy error: %1)").arg(it.error),
                          it.probeCalls > 0 ? QStringLiteral(" (%1 probes: %2)").arg(it.probeCalls).arg(it.probes.join(QStringLiteral("; ")))
                                            : QString()));
}

bool CounterfactualLoop::dreamAfter(const CounterfactualSettings &settings, CounterfactualArm arm, int r,
                                    CounterfactualIteration *it, ArmState *state)
{
    const int t = it->iteration;
    DreamSettings ds = dreamSettings(settings, r, t, it->beta);
    ds.floorVersion = state->start;
    if (settings.oracle)
        ds.oracleWorlds = state->complete;
    emit dreaming(r, t, state->history);
    Dreamer dreamer(nullptr, m_developer);
    connect(&dreamer, &Dreamer::message, this, [this](const QString &line) { emit message(QStringLiteral("  dream: ") + line); },
            Qt::DirectConnection);
    m_dreamer.store(&dreamer);
    if (m_stop.load())
        dreamer.cancel();
    const DreamReport dream = dreamer.runInMemory(state->history, ds, state->current, state->nextNumber);
    m_dreamer.store(nullptr);
    state->nextNumber += std::max<qsizetype>(0, dream.versions.size() - 1);
    if (dream.cancelled || m_stop.load())
        return false;
    if (const DreamVersion *proposal = dream.proposal())
        it->proposed = proposal->developed.version.name;
    const CandidateCounts counted = CandidateCounts::of(dream.candidates);
    it->candidates += counted.total;
    it->distinctCandidates += counted.distinct();
    it->inertCandidates += counted.inert;
    int chosen = dream.proposed;
    if (!dream.error.isEmpty())
        it->approvalNote = QStringLiteral("the dream failed: %1").arg(dream.error);
    else if (dream.floor.measured && (!dream.floor.passed || dream.floor.repair))
        it->approvalNote = dream.floor.verdict;
    if (arm == CounterfactualArm::Guarded && chosen > 0)
        chosen = guardedChoice(dream, chosen, settings, it);
    if (chosen > 0) {
        state->current = dream.versions.at(chosen).developed.version;
        state->current.origin = PolicyOrigin::Agent;
    }
    it->approved = state->current.name;
    return true;
}

QJsonObject CounterfactualLoop::toJson(const CounterfactualReport &report, const CounterfactualSettings &settings)
{
    QJsonArray runs;
    for (const CounterfactualRun &run : report.runs)
        runs.append(runJson(run, settings));

    // Per arm and repeat: calls and attainments of the iterations, the final
    // best score, and the cumulative calls at each iteration.
    QJsonObject summary;
    const QHash<int, std::optional<double>> fixedFinalBest = fixedFinalBests(report);
    const bool compare = settings.arms.contains(CounterfactualArm::Fixed) && settings.arms.size() > 1;
    for (const CounterfactualArm arm : settings.arms) {
        std::optional<QJsonObject> reach;
        summary.insert(counterfactualArmName(arm), armSummary(arm, report, settings, fixedFinalBest, compare, &reach));
        if (reach && arm == CounterfactualArm::Dream)
            summary.insert(QStringLiteral("calls_to_reach_fixed_best"), *reach);
    }

    QJsonObject out;
    out.insert(QStringLiteral("runs"), runs);
    out.insert(QStringLiteral("summary"), summary);
    out.insert(QStringLiteral("config"), configJson(settings));
    if (report.stopped)
        out.insert(QStringLiteral("stopped"), true);
    return out;
}

} // namespace dreamrsi
