#include "replayengine.h"

#include "scoring.h"

#include "model/treejson.h"
#include "policy/episoderules.h"

#include <QRunnable>
#include <QThread>
#include <QThreadPool>
#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>

namespace dreamrsi {

namespace {

CellMeta metaOf(const DiscoveryTree &world, int cellIndex)
{
    const Cell &c = world.cells().at(cellIndex);
    const int parent = world.parentIndex(cellIndex);
    return CellMeta{c.id, c.branch, c.attempt, parent >= 0 ? world.cells().at(parent).id : QString(), c.seq, c.tags};
}

/// The observation of a revealed cell, whose metadata the caller gives.
Observation observationOf(const DiscoveryTree &world, int cellIndex, CellMeta &&meta)
{
    const Cell &c = world.cells().at(cellIndex);
    const Cell *parent = c.attempt == 0 ? nullptr : &world.cells().at(world.parentIndex(cellIndex));
    return EpisodeRules::observe(c, std::move(meta), world.meta().baselineScore, parent);
}

/// Steering before round `k` (ReplayEngine::runEpisode): the closings of
/// rounds ≤ k join `closed`; the legal pins of round k (not closed, at most
/// W) go to `pins`; `offered` is `legal` without closed branches and pins.
void applySteering(const WorldSteering &steering, int k, int W, const QList<CellMeta> &legal, QList<int> *closed,
                   QStringList *pins, QList<CellMeta> *offered)
{
    for (const WorldSteering::Step &s : steering.steps) {
        if (s.round <= k && s.close && !closed->contains(s.branch)) {
            closed->append(s.branch);
            std::sort(closed->begin(), closed->end());
        }
    }
    const auto legalCell = [&](const QString &id) {
        return std::any_of(legal.cbegin(), legal.cend(),
                           [&](const CellMeta &m) { return m.id == id && !closed->contains(m.branch); });
    };
    for (const WorldSteering::Step &s : steering.steps) {
        if (s.round == k && !s.close && pins->size() < W && !pins->contains(s.cell) && legalCell(s.cell))
            pins->append(s.cell);
    }
    for (const CellMeta &m : legal) {
        if (!closed->contains(m.branch) && !pins->contains(m.id))
            offered->append(m);
    }
}

PolicySteering steeringView(const QList<int> &closed, const QStringList &pins)
{
    PolicySteering v;
    v.closed = closed;
    v.pinned = pins;
    return v;
}

/// Where `id` stands in `cells`, -1 when it is not there.
qsizetype placeOf(const QList<CellMeta> &cells, const QString &id)
{
    for (qsizetype j = 0; j < cells.size(); ++j) {
        if (cells.at(j).id == id)
            return j;
    }
    return -1;
}

/// The places in `legal` of a round's batch, checked (EpisodeRules::checkBatch);
/// a fault, or empty. Steered, the policy's batch is checked against what it
/// was `offered` with W less the pins, and the pins go first.
QString placeBatch(const QStringList &batch, const QList<CellMeta> &legal, int W, const QList<CellMeta> *offered,
                   const QStringList &pins, EpisodeRules::Places *places, RoundTrace *trace)
{
    const auto sameId = [](const QString &id) -> const QString & { return id; };
    const auto legalAt = [&legal](const QString &id) { return placeOf(legal, id); };
    if (!offered)
        return EpisodeRules::checkBatch(batch, legal.size(), W, legalAt, sameId, places);
    EpisodeRules::Places chosen;
    const QString fault = EpisodeRules::checkBatch(
        batch, offered->size(), W - int(pins.size()), [offered](const QString &id) { return placeOf(*offered, id); },
        sameId, &chosen);
    if (!fault.isEmpty())
        return fault;
    for (const QString &id : pins)
        places->append(legalAt(id));
    for (const QString &id : batch)
        places->append(legalAt(id));
    if (trace)
        trace->batch = pins + batch;
    return {};
}


} // namespace

GridContext ReplayEngine::gridContextFor(const DiscoveryTree &world, const ReplayOptions &options)
{
    GridContext context;
    const int width = int(world.branches().size());
    const int refinements = std::max(0, world.maxDepth() - 1);
    GridPlan recorded{width, refinements, QString()};
    if (world.meta().grid)
        recorded = GridPlan{world.meta().grid->branches, world.meta().grid->refinements, QString()};
    context.hardMaxBranches = std::max({options.hardMaxBranches, width, recorded.branches, 1});
    context.hardMaxRefinements = std::max({options.hardMaxRefinements, refinements, recorded.refinements});
    context.fallback = recorded;
    context.maxWorkers = options.workers;
    context.recordedBranches = recorded.branches;
    context.recordedRefinements = recorded.refinements;
    return context;
}

namespace {

/// The grid plan a policy with a grid planner makes for `world`
/// (docs/replay.md#grid-plans-in-replay): the first `branches` branch ids
/// are allowed, attempts up to `refinements`. False, with the error in `r`,
/// when the plan breaks the rules.
bool restrictToGrid(const DiscoveryTree &world, Policy &policy, const ReplayOptions &options, EpisodeResult *r,
                    qsizetype *allowedBranches, int *maxAttempt)
{
    if (!options.useGridPlan || !policy.hasGridPlanner())
        return true;
    const GridContext context = ReplayEngine::gridContextFor(world, options);
    const GridPlanResult planned = policy.planGrid(context);
    if (const QString problem = EpisodeRules::checkGridPlan(planned, context); !problem.isEmpty()) {
        r->error = QStringLiteral("round 1: ") + problem;
        return false;
    }
    if (planned.plan) {
        r->plan = planned.plan;
        *allowedBranches = std::min<qsizetype>(*allowedBranches, planned.plan->branches);
        *maxAttempt = planned.plan->refinements;
    }
    return true;
}

/// A round's trace, opened in `r` with what the episode stands at before it.
RoundTrace *openTrace(EpisodeResult *r, int k, double best, const QString &bestId, double S, const PolicyState &state)
{
    r->trace.append(RoundTrace{});
    RoundTrace *trace = &r->trace.last();
    trace->round = k;
    trace->prefix.calls = r->calls;
    trace->prefix.best = best;
    trace->prefix.bestId = bestId;
    trace->prefix.attainment = Scoring::attainment(best, S);
    trace->prefix.openedBranches = state.openedBranches();
    trace->prefix.legal = state.legalIds();
    return trace;
}

/// The legal cells of the first round: attempt 0 of each allowed branch.
void firstLegal(const DiscoveryTree &world, qsizetype allowedBranches, int maxAttempt, QList<CellMeta> *legal,
                QList<int> *legalCells)
{
    legal->reserve(allowedBranches);
    legalCells->reserve(allowedBranches);
    for (qsizetype bi = 0; bi < allowedBranches; ++bi) {
        const DiscoveryTree::Branch &b = world.branches().at(bi);
        if (!b.cells.isEmpty() && maxAttempt >= 0) {
            legalCells->append(b.cells.first());
            legal->append(metaOf(world, b.cells.first()));
        }
    }
}

} // namespace

EpisodeResult ReplayEngine::runEpisode(const DiscoveryTree &world, Policy &policy, double beta,
                                       const ReplayOptions &options, const WorldSteering *steering)
{
    EpisodeResult r;
    r.beta = beta;
    const double S = world.bestEffectiveScore();
    r.scorable = S > 0.0;
    const int W = std::max(1, options.workers);
    const QList<DiscoveryTree::Branch> &branches = world.branches();

    policy.beginEpisode(beta, W);

    // Grid restriction (docs/replay.md#grid-plans-in-replay): the first `branches` branch ids, attempts ≤ refinements.
    qsizetype allowedBranches = branches.size();
    int maxAttempt = std::numeric_limits<int>::max();
    if (!restrictToGrid(world, policy, options, &r, &allowedBranches, &maxAttempt))
        return r;

    PolicyState state;
    state.reset(beta, W, world.meta().baselineScore);
    state.reserveObservations(world.cells().size());
    // The legal cells, sorted by branch (one per branch at most): attempt 0
    // of each allowed branch at first; a revealed cell's place goes to its
    // next attempt when that exists within the plan's depth. The metadata
    // list is kept here and lent to the state each round, so only the
    // metadata of a cell that becomes legal is built.
    QList<CellMeta> legal;
    QList<int> legalCells; // their indices into world.cells()
    firstLegal(world, allowedBranches, maxAttempt, &legal, &legalCells);
    double best = 0.0;
    QString bestId;
    int k = 0;
    QList<int> closedBranches; // by steering, ascending
    // Every cell is revealed at most once.
    r.revealed.reserve(world.cells().size());
    r.curve.reserve(world.cells().size());

    for (;;) {
        if (legal.isEmpty())
            break;
        if (options.maxRounds && k >= *options.maxRounds)
            break;
        state.setRound(k);
        // Steering applied (never in a plain replay): what the policy is
        // offered this round, and the pins that go first.
        QList<CellMeta> offered;
        QStringList pins;
        if (steering) {
            applySteering(*steering, k, W, legal, &closedBranches, &pins, &offered);
            state.setMaxParallelism(W - int(pins.size()));
            state.setSteering(steeringView(closedBranches, pins));
            state.setLegal(offered);
        } else {
            state.setLegal(legal); // shared until the state lets go of it below
        }

        RoundTrace *trace = options.trace ? openTrace(&r, k, best, bestId, S, state) : nullptr;

        const PolicyDecision decision = policy.selectBatch(state);
        state.setLegal({});
        EpisodeRules::Places places; // of the batch's ids in `legal`
        const auto where = [k] { return QStringLiteral("round %1: ").arg(k + 1); };
        if (!decision.ok()) {
            r.error = where() + decision.error;
        } else {
            if (trace)
                trace->batch = decision.batch;
            const QString fault =
                placeBatch(decision.batch, legal, W, steering ? &offered : nullptr, pins, &places, trace);
            if (!fault.isEmpty())
                r.error = where() + fault;
        }
        if (!r.error.isEmpty()) {
            if (trace)
                trace->error = r.error;
            break;
        }
        if (places.isEmpty())
            break;

        EpisodeRules::revealBatch(
            places,
            [&](qsizetype j) {
                const int cell = legalCells.at(j);
                const Cell &c = world.cells().at(cell);
                r.revealed.append(c.id);
                r.calls += 1;
                const double e = c.effectiveScore();
                if (bestId.isEmpty() || e > best) {
                    bestId = c.id;
                    best = std::max(best, e);
                }
                r.curve.append(CurvePoint{r.calls, Scoring::attainment(best, S)});
                state.appendObservation(observationOf(world, cell, std::move(legal[j])));
                if (trace)
                    trace->revealed.append(RevealedCell{c.id, c.branch, c.attempt, c.score, e, c.failClass});
            },
            [&](qsizetype j) {
                // The branch's next attempt takes the revealed cell's place.
                const int cell = legalCells.at(j);
                const QList<int> &attempts = branches.at(world.branchIndexOfCell(cell)).cells;
                const int nextAttempt = world.cells().at(cell).attempt + 1;
                if (nextAttempt >= attempts.size() || nextAttempt > maxAttempt)
                    return false;
                legalCells[j] = attempts.at(nextAttempt);
                legal[j] = metaOf(world, legalCells.at(j));
                return true;
            },
            [&](qsizetype j) {
                legalCells.remove(j);
                legal.remove(j);
            });
        k += 1;
    }
    r.rounds = k;
    r.best = best;
    r.attainment = Scoring::attainment(best, S);
    return r;
}

void ReplayEngine::score(SweepResult &sweep, int gridSize)
{
    sweep.frontier.clear();
    sweep.hypervolume.reset();
    sweep.penalty.reset();
    sweep.value.reset();
    // A policy error nulls only the world's value (docs/replay.md#scoring); the
    // frontier, hypervolume and penalty of the points the episodes reached
    // are still reported.
    if (sweep.episodes.isEmpty())
        return;
    QList<int> calls;
    QList<int> rounds;
    QList<ParetoPoint> points;
    for (const EpisodeResult &e : sweep.episodes) {
        calls.append(e.calls);
        rounds.append(e.rounds);
        points.append(ParetoPoint{e.calls, e.attainment});
    }
    sweep.penalty = Scoring::penalty(calls, rounds, gridSize);
    if (!sweep.scorable)
        return;
    sweep.frontier = Scoring::paretoFrontier(points);
    sweep.hypervolume = Scoring::hypervolume(points, sweep.cells);
    if (sweep.ok())
        sweep.value = Scoring::value(*sweep.hypervolume, *sweep.penalty, sweep.lambda);
}

namespace {

SweepResult emptySweep(const ReplayWorld &world, const ReplayOptions &options)
{
    SweepResult sweep;
    sweep.world = world.name;
    sweep.lambda = options.lambda;
    if (world.tree) {
        sweep.cells = world.tree->cellCount();
        sweep.best = world.tree->bestEffectiveScore();
        sweep.scorable = world.tree->isScorable();
    } else {
        sweep.error = QStringLiteral("no tree loaded");
    }
    return sweep;
}

} // namespace

SweepResult ReplayEngine::runSweep(const ReplayWorld &world, Policy &policy, const ReplayOptions &options)
{
    SweepResult sweep = emptySweep(world, options);
    if (!world.tree)
        return sweep;
    for (const double beta : options.betas) {
        sweep.episodes.append(runEpisode(*world.tree, policy, beta, options, world.steering.get()));
        if (sweep.error.isEmpty() && !sweep.episodes.constLast().ok())
            sweep.error = sweep.episodes.constLast().error;
    }
    score(sweep, int(options.betas.size()));
    return sweep;
}

namespace {

ReplayResult emptyResult(const PolicySpec &spec, const ReplayOptions &options)
{
    ReplayResult result;
    result.policy = spec.label();
    result.lambda = options.lambda;
    result.workers = options.workers;
    result.maxRounds = options.maxRounds;
    result.betas = options.betas;
    return result;
}

int threadsFor(const ReplayOptions &options, qsizetype jobs)
{
    const int threads = options.threads > 0 ? options.threads : QThread::idealThreadCount();
    return int(std::max<qsizetype>(1, std::min<qsizetype>(threads, jobs)));
}

/// Runs `work` on `threads` threads, the calling one among them, each with a
/// policy of its own from `spec` (a QJSEngine stays on the thread that made
/// it); the calling thread uses `made` when given. Returns the message of a
/// policy that could not be created, if any.
QString onThreads(int threads, const PolicySpec &spec, const std::function<void(Policy &)> &work,
                  std::unique_ptr<Policy> made = {})
{
    QString createError;
    std::mutex errorMutex;
    const std::thread::id caller = std::this_thread::get_id();
    auto runOnThisThread = [&] {
        // Only the calling thread looks at `made` (the others would race its move).
        Result<std::unique_ptr<Policy>> own = std::this_thread::get_id() == caller && made
                                                  ? Result<std::unique_ptr<Policy>>::success(std::move(made))
                                                  : spec.create();
        if (own) {
            work(**own.value);
        } else {
            std::lock_guard lock(errorMutex);
            createError = own.error;
        }
    };
    if (threads == 1) {
        runOnThisThread();
    } else {
        QThreadPool pool;
        pool.setMaxThreadCount(threads - 1);
        for (int t = 1; t < threads; ++t)
            pool.start(runOnThisThread);
        runOnThisThread();
        pool.waitForDone();
    }
    return createError;
}

} // namespace

ReplayResult ReplayEngine::runWorlds(const QList<ReplayWorld> &worlds, const PolicySpec &spec,
                                     const ReplayOptions &options, const Progress &progress,
                                     const std::atomic<bool> *cancel, std::unique_ptr<Policy> made)
{
    ReplayResult result = emptyResult(spec, options);
    const qsizetype nb = options.betas.size();
    const qsizetype total = worlds.size() * nb;
    QList<EpisodeResult> episodes(total);
    QList<bool> done(total, false);
    EpisodeResult *episodeSlots = episodes.data();
    bool *doneSlots = done.data();
    std::atomic<qsizetype> nextJob{0};
    std::atomic<int> finished{0};

    const QString createError = onThreads(threadsFor(options, total), spec, [&](Policy &policy) {
        for (;;) {
            if (cancel && cancel->load())
                return;
            const qsizetype job = nextJob.fetch_add(1);
            if (job >= total)
                return;
            const ReplayWorld &world = worlds.at(job / nb);
            if (world.tree)
                episodeSlots[job] = runEpisode(*world.tree, policy, options.betas.at(job % nb), options, world.steering.get());
            doneSlots[job] = true;
            const int n = finished.fetch_add(1) + 1;
            if (progress)
                progress(n, int(total));
        }
    }, std::move(made));

    for (qsizetype w = 0; w < worlds.size(); ++w) {
        SweepResult sweep = emptySweep(worlds.at(w), options);
        for (qsizetype b = 0; b < nb; ++b) {
            const qsizetype job = w * nb + b;
            EpisodeResult &e = episodeSlots[job];
            if (!doneSlots[job]) {
                e.beta = options.betas.at(b);
                e.error = !createError.isEmpty() ? createError : QStringLiteral("cancelled");
            }
            if (sweep.error.isEmpty() && !e.ok())
                sweep.error = e.error;
            sweep.episodes.append(std::move(e));
        }
        score(sweep, int(nb));
        result.worlds.append(std::move(sweep));
    }

    result.computeValue();
    return result;
}

Result<ReplayResult> ReplayEngine::runFiles(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options,
                                            const SweepDone &done, const Progress &progress, std::unique_ptr<Policy> made)
{
    using Replayed = Result<ReplayResult>;
    const qsizetype n = paths.size();
    const qsizetype nb = options.betas.size();
    const int threads = threadsFor(options, n * nb);
    // Reads every file first, then spreads the (world, β) episodes.
    const auto readThenRun = [&]() -> Replayed {
        QList<ReplayWorld> worlds;
        // A replay reads no payload (docs/policy-api.md): it is checked, not built.
        QList<TreeJson::ParseResult> parsed = TreeJson::readFiles(paths, threads, TreeJson::Payload::Skip);
        for (qsizetype i = 0; i < n; ++i) {
            if (!parsed[i].ok())
                return Replayed::failure(parsed[i].error.message);
            worlds.append(ReplayWorld{paths.at(i), std::make_shared<const DiscoveryTree>(std::move(*parsed[i].tree))});
        }
        ReplayResult result = runWorlds(worlds, spec, options, progress, nullptr, std::move(made));
        for (qsizetype i = 0; i < n; ++i)
            result.worlds[i].approximate = worlds.at(i).tree->meta().approximate;
        if (done) {
            for (qsizetype i = 0; i < n; ++i)
                done(i, result.worlds.at(i));
        }
        return Replayed::success(std::move(result));
    };
    if (n < 4 * threads) // too few files to keep every thread busy a world at a time
        return readThenRun();

    QList<SweepResult> sweeps(n);
    SweepResult *sweepSlots = sweeps.data();
    QList<QString> errors(n);
    QString *errorSlots = errors.data();
    std::atomic<qsizetype> nextWorld{0};
    std::atomic<qsizetype> stopAt{n}; // the first unreadable file found so far
    std::atomic<int> finished{0};
    const QString createError = onThreads(threads, spec, [&](Policy &policy) {
        if (options.threadStart)
            options.threadStart();
        for (;;) {
            // Worlds are taken in order, so every file before an unreadable
            // one has been taken by the time it is found.
            const qsizetype i = nextWorld.fetch_add(1);
            if (i >= stopAt.load())
                return;
            TreeJson::ParseResult parsed = TreeJson::readFile(paths.at(i), TreeJson::Payload::Skip);
            if (!parsed.ok()) {
                errorSlots[i] = parsed.error.message;
                for (qsizetype seen = stopAt.load(); i < seen && !stopAt.compare_exchange_weak(seen, i);) {
                }
                return;
            }
            const ReplayWorld world{paths.at(i), std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))};
            sweepSlots[i] = runSweep(world, policy, options);
            sweepSlots[i].approximate = world.tree->meta().approximate;
            if (done)
                done(i, sweepSlots[i]);
            const int count = finished.fetch_add(int(nb)) + int(nb);
            if (progress)
                progress(count, int(n * nb));
        }
    }, std::move(made));
    if (const qsizetype failed = stopAt.load(); failed < n)
        return Replayed::failure(errors.at(failed));
    if (!createError.isEmpty()
        && std::any_of(sweeps.cbegin(), sweeps.cend(), [](const SweepResult &s) { return s.episodes.isEmpty(); })) {
        // No thread could make the policy: every world reports why, as runWorlds() does.
        return readThenRun();
    }
    ReplayResult result = emptyResult(spec, options);
    result.worlds = std::move(sweeps);
    result.computeValue();
    return Replayed::success(std::move(result));
}

} // namespace dreamrsi
