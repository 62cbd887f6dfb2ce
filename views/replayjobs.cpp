#include "replayjobs.h"

#include "policy/builtinpolicies.h"
#include "replay/replayengine.h"

#include <QCoreApplication>

#include <map>
#include <tuple>

namespace dreamrsi {

ReplayOptions ReplayJobs::optionsFrom(const AppSettings &settings)
{
    ReplayOptions o;
    o.workers = settings.workers;
    o.lambda = settings.lambda;
    o.betas = settings.betas;
    return o;
}

QList<ReplayWorld> ReplayJobs::worldsOf(const Workspace &workspace)
{
    QList<ReplayWorld> worlds;
    for (const WorldEntry &w : workspace.worlds())
        worlds.append({w.name, w.tree});
    return worlds;
}

PolicySpec ReplayJobs::specFor(const PolicyVersion &version, const AppSettings &settings)
{
    PolicySpec spec = PolicySpec::script(version.code, version.name);
    spec.setTimeLimitMs(settings.scriptTimeLimitMs);
    return spec;
}

QList<PolicyVersion> ReplayJobs::builtinVersions()
{
    QList<PolicyVersion> versions;
    for (const QString &name : BuiltinPolicies::names()) {
        PolicyVersion v;
        v.name = QStringLiteral("builtin:") + name;
        v.code = BuiltinPolicies::javaScriptSource(name);
        v.origin = PolicyOrigin::Builtin;
        versions.append(v);
    }
    return versions;
}

ReplayProcessRequest ReplayJobs::sweepRequest(QList<ReplayWorld> worlds, const PolicyVersion &version,
                                              const AppSettings &settings)
{
    ReplayProcessRequest request;
    request.worlds = std::move(worlds);
    request.policySource = version.code;
    request.workers = settings.workers;
    request.lambda = settings.lambda;
    request.betas = settings.betas;
    request.scriptTimeLimitMs = settings.scriptTimeLimitMs;
    request.memoryLimitBytes = qint64(settings.replayMemoryLimitMb) << 20;
    request.wallLimitMs = settings.replayWallLimitS * 1000;
    request.trace = false;
    return request;
}

ReplayProcessRequest ReplayJobs::tracedEpisodeRequest(ReplayWorld world, const PolicyVersion &version, double beta,
                                                      const AppSettings &settings)
{
    ReplayProcessRequest request = sweepRequest({std::move(world)}, version, settings);
    request.betas = {beta};
    request.threads = 1;
    request.trace = true;
    return request;
}

std::shared_ptr<const EpisodeResult> ReplayJobs::tracedEpisodeOf(const ReplayProcessOutput &output)
{
    auto episode = std::make_shared<EpisodeResult>();
    if (!output.traces.isEmpty())
        *episode = output.traces.first();
    else
        episode->error = output.result.firstError().isEmpty() ? QCoreApplication::translate("ReplayJobs", "no episode was run")
                                                              : output.result.firstError();
    const ReplayResult &r = output.result;
    if (!r.worlds.isEmpty() && episode->ok() && !r.worlds.first().error.isEmpty())
        episode->error = r.worlds.first().error;
    return episode;
}

QHash<PolicyVersionId, ReplayResultPtr> ReplayJobs::resultsFromRecords(const QList<ReplayResultRecord> &records,
                                                                       const QList<WorldEntry> &worlds)
{
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
        double sum = 0;
        bool anyError = false;
        for (const WorldEntry &w : worlds) {
            auto found = byWorld.find(w.iteration);
            if (w.iteration == 0 || found == byWorld.end() || !w.tree)
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
            anyError = anyError || !sweep.ok();
            if (sweep.value) {
                sum += *sweep.value;
                ++result->scorableWorlds;
            }
            result->worlds.append(sweep);
        }
        if (result->worlds.isEmpty())
            continue;
        if (!anyError && result->scorableWorlds > 0)
            result->value = sum / result->scorableWorlds;
        out.insert(it.key(), result);
    }
    return out;
}

QList<ReplayResultRecord> ReplayJobs::recordsFor(const ReplayResult &result, PolicyVersionId version,
                                                 const QList<WorldEntry> &worlds)
{
    QList<ReplayResultRecord> records;
    for (const SweepResult &sweep : result.worlds) {
        IterationId iteration = 0;
        for (const WorldEntry &w : worlds) {
            if (w.name == sweep.world)
                iteration = w.iteration;
        }
        if (iteration == 0)
            continue;
        for (const EpisodeResult &e : sweep.episodes) {
            records.append(replayResultRecord(e, version, iteration, result.workers, result.lambda, result.maxRounds));
        }
    }
    return records;
}

} // namespace dreamrsi
