#include "projectscores.h"

#include "replay/replayengine.h"
#include "replay/worldmodel.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace dreamrsi {

ReplayResultRecord ProjectScores::recordOf(const EpisodeResult &episode, PolicyVersionId version, IterationId world,
                                           int workers, double lambda, std::optional<int> maxRounds, int completions,
                                           int completion)
{
    ReplayResultRecord r;
    r.key.completions = completions;
    r.key.completion = completions > 0 ? completion : 0;
    r.key.version = version;
    r.key.world = world;
    r.key.beta = episode.beta;
    r.key.workers = workers;
    r.key.lambda = lambda;
    r.key.rounds = maxRounds;
    if (episode.plan)
        r.key.grid = GridShape{episode.plan->branches, episode.plan->refinements};
    r.calls = episode.calls;
    r.rounds = episode.rounds;
    r.best = episode.best;
    r.attainment = episode.attainment;
    r.revealed = episode.revealed;
    if (!episode.error.isEmpty())
        r.error = episode.error;
    return r;
}

QList<ReplayResultRecord> ProjectScores::recordsFor(const ReplayResult &result, PolicyVersionId version,
                                                    const QList<ProjectWorld> &worlds)
{
    QList<ReplayResultRecord> records;
    for (const SweepResult &sweep : result.worlds) {
        IterationId iteration = 0;
        for (const ProjectWorld &w : worlds) {
            if (w.name == sweep.world)
                iteration = w.iteration;
        }
        if (iteration == 0)
            continue;
        for (const EpisodeResult &e : sweep.episodes)
            records.append(recordOf(e, version, iteration, result.workers, result.lambda, result.maxRounds));
    }
    return records;
}

QList<ReplayResultRecord> ProjectScores::recordsForCompletions(const ReplayResult &result, PolicyVersionId version,
                                                               const QList<IterationId> &history, int completions)
{
    QList<ReplayResultRecord> records;
    for (qsizetype i = 0; i < result.worlds.size(); ++i) {
        const Imagination::CompletionPlace p = Imagination::placeOf(i, completions);
        if (p.world >= history.size())
            break;
        for (const EpisodeResult &e : result.worlds.at(i).episodes) {
            records.append(recordOf(e, version, history.at(p.world), result.workers, result.lambda, result.maxRounds,
                                    completions, p.completion));
            records.last().key.rule = result.rule;
        }
    }
    return records;
}

bool ProjectScores::coversAll(const ReplayResult &result, const QList<ProjectWorld> &worlds)
{
    for (const ProjectWorld &w : worlds) {
        if (!result.sweepOf(w.name))
            return false;
    }
    return true;
}

namespace {

// W, λ, K (0 = none), C (0 = revealed), the imagination rule (0 when revealed)
using Params = std::tuple<int, double, int, int, int>;

Params paramsOf(const ReplayKey &k)
{
    return Params{k.workers, k.lambda, k.rounds.value_or(0), k.completions, k.isImagined() ? int(k.rule) + 1 : 0};
}

std::pair<int, int> gridOf(const ReplayKey &k)
{
    return k.grid ? std::pair{k.grid->branches, k.grid->refinements} : std::pair{-1, -1};
}

QList<ProjectWorld> replayWorldsIn(const QList<ProjectWorld> &worlds)
{
    QList<ProjectWorld> out;
    for (const ProjectWorld &w : worlds) {
        if (w.iteration != 0 && w.tree)
            out.append(w);
    }
    return out;
}

/// One version's result from `records` (all of that version and one W, λ,
/// K), restricted to `betas` when given; worlds lacking one of `betas` are
/// left out. Null when no world has a record.
ReplayResultPtr resultOf(const QList<const ReplayResultRecord *> &records, const QList<ProjectWorld> &projectWorlds,
                         const std::optional<QList<double>> &betas)
{
    if (records.isEmpty())
        return nullptr;
    // The grid restriction of the newest record wins.
    const ReplayResultRecord *newest = nullptr;
    for (const ReplayResultRecord *r : records) {
        if (!newest || r->created > newest->created)
            newest = r;
    }
    const auto grid = gridOf(newest->key);
    // (world iteration, completion) → β → record; an imagined valuation
    // replays C completions of each world (all records of a group have one C).
    const int completions = newest->key.completions;
    std::map<std::pair<IterationId, int>, std::map<double, const ReplayResultRecord *>> byWorld;
    std::set<double> seen;
    for (const ReplayResultRecord *r : records) {
        if (gridOf(r->key) == grid && (!betas || betas->contains(r->key.beta))) {
            byWorld[{r->key.world, r->key.completion}][r->key.beta] = r;
            seen.insert(r->key.beta);
        }
    }
    auto result = std::make_shared<ReplayResult>();
    result->workers = newest->key.workers;
    result->lambda = newest->key.lambda;
    result->maxRounds = newest->key.rounds;
    result->completions = completions;
    result->rule = newest->key.rule;
    if (betas) {
        result->betas = *betas;
        std::sort(result->betas.begin(), result->betas.end());
    } else {
        result->betas = QList<double>(seen.begin(), seen.end());
    }
    bool complete = true;
    for (const ProjectWorld &w : projectWorlds) {
      for (int k = 0; k < std::max(1, completions); ++k) {
        auto found = byWorld.find({w.iteration, k});
        if (found == byWorld.end() || (betas && found->second.size() != size_t(result->betas.size()))) {
            complete = false;
            continue;
        }
        SweepResult sweep;
        sweep.world = completions > 0 ? ProjectScores::completionName(w.name, k) : w.name;
        sweep.lambda = result->lambda;
        if (completions > 0) {
            // A completion holds the world's whole grid; its best score S is
            // what an episode's best and attainment say (s / a), else the
            // revealed world's (a completion keeps every revealed cell).
            sweep.cells = Imagination::completedCellCount(*w.tree);
            sweep.best = w.tree->bestEffectiveScore();
            for (const auto &[beta, rec] : found->second) {
                if (rec->attainment > 0.0)
                    sweep.best = std::max(sweep.best, rec->best / rec->attainment);
            }
            sweep.scorable = sweep.best > 0.0;
        } else {
            sweep.cells = w.tree->cellCount();
            sweep.best = w.tree->bestEffectiveScore();
            sweep.scorable = w.tree->isScorable();
        }
        for (const auto &[beta, rec] : found->second) {
            EpisodeResult e;
            e.beta = beta;
            e.calls = int(rec->calls);
            e.rounds = rec->rounds;
            e.best = rec->best;
            e.attainment = rec->attainment;
            e.scorable = sweep.scorable;
            e.revealed = rec->revealed;
            e.error = rec->error.value_or(QString());
            if (!e.error.isEmpty() && sweep.error.isEmpty())
                sweep.error = e.error;
            sweep.episodes.append(e);
        }
        ReplayEngine::score(sweep, int(sweep.episodes.size()));
        result->worlds.append(sweep);
      }
    }
    if (result->worlds.isEmpty())
        return nullptr;
    result->computeValue();
    if (!complete)
        result->value.reset();
    return result;
}

} // namespace

QHash<PolicyVersionId, ReplayResultPtr> ProjectScores::resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                                          const QList<ProjectWorld> &worlds,
                                                                          const ReplayConfig &config)
{
    const QList<ProjectWorld> projectWorlds = replayWorldsIn(worlds);
    QHash<PolicyVersionId, QList<const ReplayResultRecord *>> byVersion;
    for (const ReplayResultRecord &r : records) {
        if (config.covers(r.key))
            byVersion[r.key.version].append(&r);
    }
    QHash<PolicyVersionId, ReplayResultPtr> out;
    for (auto it = byVersion.cbegin(); it != byVersion.cend(); ++it) {
        if (ReplayResultPtr result = resultOf(it.value(), projectWorlds, config.betas))
            out.insert(it.key(), result);
    }
    return out;
}

QList<ConfiguredResult> ProjectScores::otherResults(const QList<ReplayResultRecord> &records, const QList<ProjectWorld> &worlds,
                                                    const ReplayConfig &config)
{
    const QList<ProjectWorld> projectWorlds = replayWorldsIn(worlds);
    const int completions = config.imaginedCompletions();
    const Params own{config.workers, config.lambda, config.rounds.value_or(0), completions,
                     completions > 0 ? int(config.rule) + 1 : 0};
    std::map<std::pair<PolicyVersionId, Params>, QList<const ReplayResultRecord *>> groups;
    for (const ReplayResultRecord &r : records) {
        if (paramsOf(r.key) != own)
            groups[{r.key.version, paramsOf(r.key)}].append(&r);
    }
    QList<ConfiguredResult> out;
    for (const auto &[key, group] : groups) {
        ReplayResultPtr result = resultOf(group, projectWorlds, std::nullopt);
        if (result)
            out.append(ConfiguredResult{key.first, configOf(*result), result});
    }
    return out;
}

QList<PolicyVersionId> ProjectScores::staleVersions(const QList<ReplayResultRecord> &records, const QList<ProjectWorld> &worlds,
                                                    const ReplayConfig &config)
{
    const QList<ProjectWorld> projectWorlds = replayWorldsIn(worlds);
    // version → (world, completion, β) stored under the configuration
    std::map<PolicyVersionId, std::set<std::tuple<IterationId, int, double>>> covered;
    for (const ReplayResultRecord &r : records) {
        auto &pairs = covered[r.key.version];
        if (config.covers(r.key))
            pairs.insert({r.key.world, r.key.completion, r.key.beta});
    }
    const int completions = std::max(1, config.imaginedCompletions());
    QList<PolicyVersionId> stale;
    for (const auto &[version, pairs] : covered) {
        bool complete = true;
        for (const ProjectWorld &w : projectWorlds) {
            for (int k = 0; k < completions; ++k) {
                for (const double b : config.betas)
                    complete = complete && pairs.count({w.iteration, k, b}) > 0;
            }
        }
        if (!complete)
            stale.append(version);
    }
    return stale;
}

ReplayOptions ProjectScores::optionsFor(const ReplayConfig &config, ReplayOptions base)
{
    base.workers = config.workers;
    base.lambda = config.lambda;
    base.betas = config.betas;
    base.maxRounds = config.rounds;
    return base;
}

ReplayConfig ProjectScores::configOf(const ReplayResult &result)
{
    ReplayConfig c;
    c.workers = result.workers;
    c.lambda = result.lambda;
    c.betas = result.betas;
    c.rounds = result.maxRounds;
    c.valuation = result.completions > 0 ? Valuation::Imagined : Valuation::Revealed;
    if (result.completions > 0) {
        c.completions = result.completions;
        c.rule = result.rule;
    }
    return c;
}

QString ProjectScores::completionName(const QString &world, int completion)
{
    return Imagination::completionName(world, completion);
}

} // namespace dreamrsi
