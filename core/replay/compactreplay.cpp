#include "compactreplay.h"

#include "scoring.h"

#include "model/treejson.h"
#include "policy/builtinrules.h"
#include "policy/episoderules.h"

#include <QThread>

#include <algorithm>
#include <atomic>
#include <thread>

namespace dreamrsi::CompactReplay {

namespace {

enum class Rule { ParallelRefine, Portfolio };

std::optional<Rule> ruleOf(const PolicySpec &spec)
{
    if (spec.kind() != PolicySpec::Kind::Builtin)
        return std::nullopt;
    if (spec.builtinName() == QLatin1String("parallel_refine"))
        return Rule::ParallelRefine;
    if (spec.builtinName() == QLatin1String("portfolio"))
        return Rule::Portfolio;
    return std::nullopt;
}

/// One episode (ReplayEngine::runEpisode with no grid restriction and no
/// trace), the state kept by cell index: the legal list holds one cell per
/// branch, by branch id, and a revealed cell's place goes to its next attempt.
EpisodeResult runEpisode(const CompactTree &world, Rule rule, BuiltinRules::Portfolio &portfolio, double beta,
                         const ReplayOptions &options, std::vector<int> &revealed)
{
    EpisodeResult r;
    r.beta = beta;
    const double S = world.best;
    r.scorable = S > 0.0;
    const int W = std::max(1, options.workers);
    portfolio.reset();

    std::vector<BuiltinRules::LegalCell> legal;
    std::vector<int> legalCells; // indices into world.cells
    legal.reserve(world.branches.size());
    legalCells.reserve(world.branches.size());
    for (size_t bi = 0; bi < world.branches.size(); ++bi) {
        // Every branch has an attempt 0. The portfolio's trajectory key of a branch is its index.
        const CompactTree::Branch &b = world.branches[bi];
        legal.push_back(BuiltinRules::LegalCell{b.id, 0, int(bi)});
        legalCells.push_back(b.first);
    }
    revealed.clear();
    revealed.reserve(world.cells.size());
    double best = 0.0;
    int opened = 0;
    int k = 0;
    BuiltinRules::Batch places;
    EpisodeRules::Places checked;
    for (;;) {
        if (legal.empty())
            break;
        if (options.maxRounds && k >= *options.maxRounds)
            break;
        places.clear();
        if (rule == Rule::Portfolio)
            portfolio.select(beta, W, opened, legal.data(), int(legal.size()), &places);
        else
            BuiltinRules::parallelRefine(beta, W, opened, legal.data(), int(legal.size()), &places);
        // The checks of every episode (EpisodeRules); a rule's places are legal by construction.
        const QString fault = EpisodeRules::checkBatch(
            places, qsizetype(legal.size()), W,
            [n = qsizetype(legal.size())](int p) { return p >= 0 && p < n ? qsizetype(p) : qsizetype(-1); },
            [&](int p) { return p >= 0 && size_t(p) < legalCells.size() ? world.id(legalCells[size_t(p)]) : QStringView(); },
            &checked);
        if (!fault.isEmpty())
            r.error = QStringLiteral("round %1: ").arg(k + 1) + fault;
        if (!r.error.isEmpty() || places.isEmpty())
            break;

        EpisodeRules::revealBatch(
            checked,
            [&](qsizetype j) {
                const int cell = legalCells[size_t(j)];
                const CompactTree::CellFacts &c = world.cells[size_t(cell)];
                revealed.push_back(cell);
                r.calls += 1;
                best = std::max(best, c.effective);
                if (rule == Rule::Portfolio)
                    portfolio.fold(legal[size_t(j)].key, BuiltinRules::Outcome{c.success, c.hard, c.hasScore, c.score});
                if (c.attempt == 0)
                    ++opened;
            },
            [&](qsizetype j) {
                const int cell = legalCells[size_t(j)];
                const CompactTree::CellFacts &c = world.cells[size_t(cell)];
                const CompactTree::Branch &branch = world.branches[size_t(legal[size_t(j)].key)];
                if (c.attempt + 1 >= branch.length)
                    return false;
                legalCells[size_t(j)] = cell + 1;
                legal[size_t(j)].attempt = c.attempt + 1;
                return true;
            },
            [&](qsizetype j) {
                legalCells.erase(legalCells.begin() + j);
                legal.erase(legal.begin() + j);
            });
        k += 1;
    }
    r.rounds = k;
    r.best = best;
    r.attainment = Scoring::attainment(best, S);
    return r;
}

} // namespace

bool handles(const PolicySpec &spec)
{
    return ruleOf(spec).has_value();
}

SweepResult runSweep(const CompactTree &world, const QString &name, const PolicySpec &spec,
                     const ReplayOptions &options, std::vector<std::vector<int>> *revealed)
{
    const std::optional<Rule> rule = ruleOf(spec);
    Q_ASSERT(rule);
    SweepResult sweep;
    sweep.world = name;
    sweep.lambda = options.lambda;
    sweep.cells = world.cellCount();
    sweep.best = world.best;
    sweep.scorable = world.isScorable();
    revealed->resize(size_t(options.betas.size()));
    BuiltinRules::Portfolio portfolio;
    for (qsizetype i = 0; i < options.betas.size(); ++i) {
        std::vector<int> &order = (*revealed)[size_t(i)];
        sweep.episodes.append(runEpisode(world, *rule, portfolio, options.betas.at(i), options, order));
        if (sweep.error.isEmpty() && !sweep.episodes.constLast().ok())
            sweep.error = sweep.episodes.constLast().error;
    }
    ReplayEngine::score(sweep, int(options.betas.size()));
    return sweep;
}

namespace {

/// `work` on `threads` threads (the calling thread one of them), each
/// starting with options.threadStart.
template<typename Work>
void onThreads(int threads, const ReplayOptions &options, const Work &work)
{
    const auto run = [&] {
        if (options.threadStart)
            options.threadStart();
        work();
    };
    std::vector<std::thread> pool;
    pool.reserve(size_t(std::max(0, threads - 1)));
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(run);
    run();
    for (std::thread &t : pool)
        t.join();
}

int compactThreadsFor(const ReplayOptions &options, qsizetype n)
{
    const int wanted = options.threads > 0 ? options.threads : QThread::idealThreadCount();
    return int(std::max<qsizetype>(1, std::min<qsizetype>(wanted, n)));
}

} // namespace

std::vector<Result<CompactTree>> readFiles(const QStringList &paths, const ReplayOptions &options)
{
    const qsizetype n = paths.size();
    std::vector<Result<CompactTree>> read(static_cast<size_t>(n));
    Result<CompactTree> *into = read.data();
    std::atomic<qsizetype> next{0};
    onThreads(compactThreadsFor(options, n), options, [&] {
        for (qsizetype i = next.fetch_add(1); i < n; i = next.fetch_add(1))
            into[i] = TreeJson::readCompactFile(paths.at(i), options.worldCache);
    });
    return read;
}

ReplayResult runTrees(const std::vector<const CompactTree *> &worlds, const QStringList &names, const PolicySpec &spec,
                      const ReplayOptions &options, const SweepDone &done, const ReplayEngine::Progress &progress)
{
    const qsizetype n = qsizetype(worlds.size());
    const qsizetype nb = options.betas.size();
    ReplayResult result;
    result.policy = spec.label();
    result.lambda = options.lambda;
    result.workers = options.workers;
    result.maxRounds = options.maxRounds;
    result.betas = options.betas;

    QList<SweepResult> sweeps(n);
    SweepResult *sweepSlots = sweeps.data();
    std::atomic<qsizetype> nextWorld{0};
    std::atomic<int> finished{0};
    onThreads(compactThreadsFor(options, n), options, [&] {
        std::vector<std::vector<int>> revealed;
        for (qsizetype i = nextWorld.fetch_add(1); i < n; i = nextWorld.fetch_add(1)) {
            const CompactTree &world = *worlds[size_t(i)];
            sweepSlots[i] = runSweep(world, names.at(i), spec, options, &revealed);
            if (done)
                done(i, sweepSlots[i], world, revealed);
            const int count = finished.fetch_add(int(nb)) + int(nb);
            if (progress)
                progress(count, int(n * nb));
        }
    });
    result.worlds = std::move(sweeps);
    result.computeValue();
    return result;
}

Result<ReplayResult> runFiles(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options,
                              const SweepDone &done, const ReplayEngine::Progress &progress)
{
    const std::vector<Result<CompactTree>> read = readFiles(paths, options);
    std::vector<const CompactTree *> worlds;
    worlds.reserve(read.size());
    for (const Result<CompactTree> &r : read) {
        if (!r)
            return r.failureAs<ReplayResult>(); // the first unreadable file, in order
        worlds.push_back(&*r.value);
    }
    return Result<ReplayResult>::success(runTrees(worlds, paths, spec, options, done, progress));
}

} // namespace dreamrsi::CompactReplay
