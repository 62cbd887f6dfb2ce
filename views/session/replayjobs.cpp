#include "replayjobs.h"

#include "project/approvalcomparison.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"

#include <QCoreApplication>


namespace dreamrsi {

ReplayOptions ReplayJobs::optionsFrom(const AppSettings &settings)
{
    ReplayOptions o;
    o.workers = settings.workers;
    o.lambda = settings.lambda;
    o.betas = settings.betas;
    o.maxRounds = settings.replayRounds;
    return o;
}

QList<ReplayWorld> ReplayJobs::worldsOf(const Workspace &workspace, bool includeApproximate)
{
    QList<ReplayWorld> worlds;
    for (const WorldEntry &w : workspace.worlds()) {
        if (includeApproximate || !w.tree || !w.tree->meta().approximate)
            worlds.append({w.name, w.tree});
    }
    return worlds;
}

QList<ProjectWorld> ReplayJobs::projectWorldsOf(const QList<WorldEntry> &worlds)
{
    QList<ProjectWorld> out;
    for (const WorldEntry &w : worlds)
        out.append({w.name, w.iteration, w.tree});
    return out;
}

PolicySpec ReplayJobs::specFor(const PolicyVersion &version, const AppSettings &settings)
{
    return ProjectPolicies::specFor(version, settings.scriptTimeLimitMs);
}

QList<PolicyVersion> ReplayJobs::builtinVersions()
{
    return ProjectPolicies::builtinVersions();
}

ReplayProcessRequest ReplayJobs::sweepRequest(QList<ReplayWorld> worlds, const PolicyVersion &version,
                                              const AppSettings &settings)
{
    ReplayProcessRequest request;
    request.worlds = std::move(worlds);
    // The project's rule: a built-in's exact twin runs as the built-in.
    request.policyArgument = ProjectPolicies::processArgumentFor(version);
    if (request.policyArgument.isEmpty())
        request.policySource = version.code;
    request.workers = settings.workers;
    request.lambda = settings.lambda;
    request.betas = settings.betas;
    request.maxRounds = settings.replayRounds.value_or(0);
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
                                                                       const QList<WorldEntry> &worlds,
                                                                       const ReplayConfig &config)
{
    return ProjectScores::resultsFromRecords(records, projectWorldsOf(worlds), config);
}

QHash<QString, ReplayResultPtr> ReplayJobs::otherValuationResults(const QList<ReplayResultRecord> &records,
                                                                  const QList<WorldEntry> &worlds,
                                                                  const QList<PolicyVersion> &versions,
                                                                  const ReplayConfig &config)
{
    const QHash<PolicyVersionId, ReplayResultPtr> byId =
        resultsFromRecords(records, worlds, ApprovalRules::otherValuation(config));
    QHash<QString, ReplayResultPtr> out;
    for (const PolicyVersion &v : versions) {
        if (const ReplayResultPtr r = byId.value(v.id))
            out.insert(v.name, r);
    }
    return out;
}

QList<ReplayResultRecord> ReplayJobs::recordsFor(const ReplayResult &result, PolicyVersionId version,
                                                 const QList<WorldEntry> &worlds)
{
    if (result.completions > 0) {
        // A sweep over completions: world-major, C of each of the workspace's worlds.
        QList<IterationId> iterations;
        for (const WorldEntry &w : worlds)
            iterations.append(w.iteration);
        QList<ReplayResultRecord> records =
            ProjectScores::recordsForCompletions(result, version, iterations, result.completions);
        records.removeIf([](const ReplayResultRecord &r) { return r.key.world == 0; }); // loose tree files
        return records;
    }
    return ProjectScores::recordsFor(result, version, projectWorldsOf(worlds));
}

} // namespace dreamrsi
