#include "replayjobs.h"

#include "project/approvalcomparison.h"
#include "project/projectpolicies.h"
#include "project/projectscores.h"

#include <QCoreApplication>
#include <QThreadPool>


namespace dreamrsi {

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

QList<PolicyVersion> ReplayJobs::builtinVersions()
{
    return ProjectPolicies::builtinVersions();
}

VersionReplayJob ReplayJobs::sweepJob(const PolicyVersion &version, const ReplayConfig &config, const AppSettings &settings)
{
    VersionReplayJob job;
    job.version = version;
    job.config = config;
    job.completions = config.valuation == Valuation::Imagined ? std::max(1, config.completions) : 0;
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
