#include "projectscores.h"

#include "replay/replayengine.h"

#include <map>
#include <tuple>

namespace dreamrsi {

ReplayResultRecord ProjectScores::recordOf(const EpisodeResult &episode, PolicyVersionId version, IterationId world,
                                           int workers, double lambda, std::optional<int> maxRounds)
{
    ReplayResultRecord r;
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

bool ProjectScores::coversAll(const ReplayResult &result, const QList<ProjectWorld> &worlds)
{
    for (const ProjectWorld &w : worlds) {
        if (!result.sweepOf(w.name))
            return false;
    }
    return true;
}

QHash<PolicyVersionId, ReplayResultPtr> ProjectScores::resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                                          const QList<ProjectWorld> &worlds)
{
    QList<ProjectWorld> projectWorlds;
    for (const ProjectWorld &w : worlds) {
        if (w.iteration != 0 && w.tree)
            projectWorlds.append(w);
    }
    // Pick, per version, the parameter set (W, λ, K, grid) of its newest record.
    using Params = std::tuple<int, double, int, int, int>;
    auto paramsOf = [](const ReplayKey &k) {
        return Params{k.workers, k.lambda, k.rounds.value_or(-1), k.grid ? k.grid->branches : -1,
                      k.grid ? k.grid->refinements : -1};
    };
    QHash<PolicyVersionId, const ReplayResultRecord *> newest;
    for (const ReplayResultRecord &r : records) {
        const ReplayResultRecord *&n = newest[r.key.version];
        if (!n || r.created > n->created)
            n = &r;
    }
    QHash<PolicyVersionId, ReplayResultPtr> out;
    for (auto it = newest.cbegin(); it != newest.cend(); ++it) {
        const Params chosen = paramsOf(it.value()->key);
        // world iteration → β → record
        std::map<IterationId, std::map<double, const ReplayResultRecord *>> byWorld;
        for (const ReplayResultRecord &r : records) {
            if (r.key.version == it.key() && paramsOf(r.key) == chosen)
                byWorld[r.key.world][r.key.beta] = &r;
        }
        auto result = std::make_shared<ReplayResult>();
        result->workers = it.value()->key.workers;
        result->lambda = it.value()->key.lambda;
        result->maxRounds = it.value()->key.rounds;
        for (const ProjectWorld &w : std::as_const(projectWorlds)) {
            auto found = byWorld.find(w.iteration);
            if (found == byWorld.end())
                continue;
            SweepResult sweep;
            sweep.world = w.name;
            sweep.cells = w.tree->cellCount();
            sweep.best = w.tree->bestEffectiveScore();
            sweep.scorable = w.tree->isScorable();
            sweep.lambda = result->lambda;
            QList<double> betas;
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
                betas.append(beta);
            }
            ReplayEngine::score(sweep, int(sweep.episodes.size()));
            if (result->betas.isEmpty())
                result->betas = betas;
            result->worlds.append(sweep);
        }
        if (result->worlds.isEmpty())
            continue;
        result->computeValue();
        if (!coversAll(*result, projectWorlds))
            result->value.reset();
        out.insert(it.key(), result);
    }
    return out;
}

} // namespace dreamrsi
