// Which worlds a version is valued over, and the records a result over them
// becomes (docs/online.md#valuation).
#include "valuationworlds.h"

#include "projectscores.h"

#include "task/task.h"

#include <QHash>

namespace dreamrsi {

namespace {

QList<ReplayWorld> replayWorldsOf(const QList<ProjectWorld> &history)
{
    QList<ReplayWorld> worlds;
    worlds.reserve(history.size());
    for (const ProjectWorld &w : history)
        worlds.append(ReplayWorld{w.name, w.tree, nullptr});
    return worlds;
}

} // namespace

QList<ProjectWorld> ValuationWorlds::historyOf(const QList<ProjectWorld> &worlds, bool includeApproximate, int *leftOut)
{
    QList<ProjectWorld> history;
    int out = 0;
    for (const ProjectWorld &w : worlds) {
        if (!w.tree || valuedOver(w.tree->meta(), includeApproximate))
            history.append(w);
        else
            ++out;
    }
    if (leftOut)
        *leftOut = out;
    return history;
}

ValuationWorlds ValuationWorlds::revealed(const QList<ProjectWorld> &history)
{
    ValuationWorlds set;
    set.kind = Kind::Revealed;
    set.history = history;
    set.worlds = replayWorldsOf(history);
    return set;
}

Result<ValuationWorlds> ValuationWorlds::imagined(const QList<ProjectWorld> &history, int completions, quint64 seed,
                                                  int threads, ImaginationRule rule)
{
    ImaginationOptions options;
    options.rule = rule;
    Result<ImaginedHistory> drawn = imagine(replayWorldsOf(history), seed, completions, threads, options);
    if (!drawn)
        return drawn.failureAs<ValuationWorlds>();
    ValuationWorlds set;
    set.kind = Kind::Imagined;
    set.history = history;
    set.worlds = std::move(drawn.value->completions);
    set.completions = completions;
    set.rule = rule;
    set.seed = seed;
    set.models = std::move(drawn.value->model);
    return Result<ValuationWorlds>::success(std::move(set));
}

Result<ValuationWorlds> ValuationWorlds::oracle(const QList<ProjectWorld> &history, const QList<ReplayWorld> &complete)
{
    if (complete.size() != history.size())
        return Result<ValuationWorlds>::failure(
            QStringLiteral("the oracle valuation needs one complete world per history world (%1 for %2)")
                .arg(complete.size())
                .arg(history.size()));
    ValuationWorlds set;
    set.kind = Kind::Oracle;
    set.history = history;
    // The complete worlds under the history's names: results and records
    // name them as the history worlds they stand behind.
    for (qsizetype i = 0; i < history.size(); ++i)
        set.worlds.append(ReplayWorld{history.at(i).name, complete.at(i).tree, nullptr});
    return Result<ValuationWorlds>::success(std::move(set));
}

Result<ValuationWorlds> ValuationWorlds::of(const ReplayConfig &config, const QList<ProjectWorld> &history, quint64 seed,
                                            int threads)
{
    const int completions = completionsOf(config);
    if (completions > 0)
        return imagined(history, completions, seed, threads, config.rule);
    return Result<ValuationWorlds>::success(revealed(history));
}

WorldModels ValuationWorlds::modelsOf(const QList<ReplayWorld> &history)
{
    return Imagination::fitModels(history, ImaginationOptions(), &Task::directionNamesOf);
}

Result<ImaginedHistory> ValuationWorlds::imagine(const QList<ReplayWorld> &history, quint64 seed, int count, int threads,
                                                 const ImaginationOptions &options)
{
    return Imagination::imagine(history, seed, count, options, threads, &Task::directionNamesOf);
}

QList<ReplayWorld> ValuationWorlds::firstOfEach() const
{
    QList<ReplayWorld> first;
    for (qsizetype i = 0; i < worlds.size(); i += perWorld())
        first.append(worlds.at(i));
    return first;
}

void ValuationWorlds::labelApproximate(ReplayResult &result) const
{
    if (result.worlds.size() != worlds.size())
        return;
    for (qsizetype i = 0; i < result.worlds.size(); ++i) {
        const ProjectWorld &w = history.at(historyIndexOf(i));
        result.worlds[i].approximate = w.tree && w.tree->meta().approximate;
    }
}

QList<ReplayResultRecord> ValuationWorlds::errorRecords(PolicyVersionId version, const ReplayConfig &config,
                                                        const QString &error) const
{
    QList<ReplayResultRecord> records;
    for (const ProjectWorld &w : history) {
        for (int k = 0; k < perWorld(); ++k) {
            for (const double beta : config.betas) {
                ReplayResultRecord r;
                r.key.version = version;
                r.key.world = w.iteration;
                r.key.beta = beta;
                r.key.workers = config.workers;
                r.key.lambda = config.lambda;
                r.key.rounds = config.rounds;
                r.key.completions = completions;
                r.key.completion = completions > 0 ? k : 0;
                r.key.rule = completions > 0 ? rule : ImaginationRule::Capped;
                r.error = error;
                records.append(r);
            }
        }
    }
    return records;
}

QList<ReplayResultRecord> ValuationWorlds::recordsFor(const ReplayResult &result, PolicyVersionId version,
                                                      const QList<ProjectWorld> &history)
{
    // The name each replayed world carries → its iteration and completion k
    // (a later world of the same name wins).
    struct Place
    {
        IterationId iteration = 0;
        int completion = 0;
    };
    const int completions = std::max(0, result.completions);
    QHash<QString, Place> places;
    for (const ProjectWorld &w : history) {
        if (completions == 0) {
            places.insert(w.name, Place{w.iteration, 0});
            continue;
        }
        for (int k = 0; k < completions; ++k)
            places.insert(ProjectScores::completionName(w.name, k), Place{w.iteration, k});
    }
    QList<ReplayResultRecord> records;
    for (const SweepResult &sweep : result.worlds) {
        const Place p = places.value(sweep.world);
        if (p.iteration == 0)
            continue;
        for (const EpisodeResult &e : sweep.episodes) {
            records.append(ProjectScores::recordOf(e, version, p.iteration, result.workers, result.lambda,
                                                   result.maxRounds, completions, p.completion));
            if (completions > 0)
                records.last().key.rule = result.rule;
        }
    }
    return records;
}

} // namespace dreamrsi
