#include "replayjobs.h"

#include "project/approvalcomparison.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"
#include "project/valuationworlds.h"

#include <QCoreApplication>
#include <QThreadPool>


namespace dreamrsi {

QList<ReplayWorld> ReplayJobs::worldsOf(const Workspace &workspace, bool includeApproximate)
{
    QList<ReplayWorld> worlds;
    for (const ProjectWorld &w : historyOf(workspace, includeApproximate))
        worlds.append({w.name, w.tree});
    return worlds;
}

QList<ProjectWorld> ReplayJobs::historyOf(const Workspace &workspace, bool includeApproximate)
{
    return ValuationWorlds::historyOf(projectWorldsOf(workspace.worlds()), includeApproximate);
}

QList<ProjectWorld> ReplayJobs::projectWorldsOf(const QList<WorldEntry> &worlds)
{
    QList<ProjectWorld> out;
    for (const WorldEntry &w : worlds)
        out.append({w.name, w.iteration, w.tree});
    return out;
}

QList<PolicyVersion> ReplayJobs::builtinVersions()
{
    return ProjectPolicies::builtinVersions();
}

VersionReplayJob ReplayJobs::sweepJob(const PolicyVersion &version, const ReplayConfig &config, const AppSettings &settings)
{
    VersionReplayJob job;
    job.version = version;
    job.config = config;
    job.completions = ValuationWorlds::completionsOf(config);
    job.limits = settings.scriptLimits();
    job.where = VersionReplayJob::Where::ChildProcess;
    return job;
}

VersionReplayJob ReplayJobs::tracedEpisodeJob(ReplayWorld world, const PolicyVersion &version, double beta,
                                              const ReplayConfig &config, const AppSettings &settings)
{
    VersionReplayJob job = sweepJob(version, config, settings);
    job.worlds = {std::move(world)};
    job.completions = 0;
    job.config.betas = {beta};
    job.options.threads = 1;
    job.options.trace = true;
    return job;
}

QThreadPool *ReplayJobs::pool()
{
    static QThreadPool jobs;
    static const bool sized = [] {
        jobs.setMaxThreadCount(4); // the stepper's two sides and a sweep, each waiting for a child
        return true;
    }();
    Q_UNUSED(sized);
    return &jobs;
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
    return ValuationWorlds::recordsFor(result, version, projectWorldsOf(worlds));
}

} // namespace dreamrsi
