// Replaying a policy into a project: resolve the version, load the replay
// worlds, run the engine, store the results.
#include "projectreplay.h"

#include "policyresolution.h"
#include "projectpolicies.h"
#include "projectworlds.h"
#include "valuationworlds.h"
#include "versionreplay.h"

#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QFileInfo>

#include <algorithm>

namespace dreamrsi {

namespace {

/// Finds or adds the policy version `argument` names. Without a writer (a
/// replay that stores nothing) a version not stored yet runs as it is, id 0.
Result<PolicyVersion> resolveVersion(ProjectWriter *writer, ProjectReader &reader, const QString &argument,
                                     const QString &nameOption)
{
    // The one reading of a policy argument (PolicyResolution::versionOfArgument):
    // today's built-in, a .js file, a stored version by name, else a file by
    // any other name — as `plot` reads it.
    const Result<QList<PolicyVersion>> stored = reader.policyVersions();
    if (!stored.ok())
        return stored.failureAs<PolicyVersion>();
    Result<PolicyVersion> made = PolicyResolution::versionOfArgument(argument, *stored.value, nameOption);
    if (!made) {
        if (argument.startsWith(QLatin1String("builtin:")) || QFileInfo::exists(argument))
            return made;
        return Result<PolicyVersion>::failure(made.error + QStringLiteral(" (give a stored version name, a .js file or builtin:NAME)"));
    }
    PolicyVersion v = std::move(*made.value);
    if (v.id != 0) // a stored version: today's built-in or one by its name
        return Result<PolicyVersion>::success(v);
    Result<PolicyVersion> existing = reader.policyVersionByName(v.name);
    if (existing.ok()) {
        if (existing.value->code != v.code)
            return Result<PolicyVersion>::failure(QStringLiteral("policy version \"%1\" is already stored with different "
                                                                 "code; name this one with --name")
                                                      .arg(v.name));
        return existing;
    }
    if (!writer)
        return Result<PolicyVersion>::success(v);
    Result<PolicyVersionId> id = writer->addPolicyVersion(v);
    if (!id.ok())
        return id.failureAs<PolicyVersion>();
    v.id = *id.value;
    return Result<PolicyVersion>::success(v);
}

} // namespace

WorldSteering ProjectReplay::steeringOf(const QList<SteeringEvent> &events)
{
    WorldSteering steering;
    for (const SteeringEvent &e : events) {
        if (!e.round)
            continue;
        if (e.action == QLatin1String("close") && e.branch)
            steering.steps.append(WorldSteering::Step{*e.round, true, *e.branch, {}});
        else if (e.action == QLatin1String("refine") && !e.target.isEmpty())
            steering.steps.append(WorldSteering::Step{*e.round, false, e.branch.value_or(-1), e.target});
    }
    return steering;
}

ProjectReplayRequest::ProjectReplayRequest() = default;

Result<ProjectReplayOutcome> ProjectReplay::run(const ProjectReplayRequest &request)
{
    // A replay that stores nothing (a what-if, or --no-store) only reads: it
    // never writes the file, and reads an older build's project as it is.
    const bool storing = !request.applySteering && !request.noStore;
    std::unique_ptr<ProjectWriter> writer;
    if (storing) {
        Result<std::unique_ptr<ProjectWriter>> opened = ProjectWriter::open(request.project);
        if (!opened.ok())
            return opened.failureAs<ProjectReplayOutcome>();
        writer = std::move(*opened.value);
    }
    Result<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(request.project);
    if (!reader.ok())
        return reader.failureAs<ProjectReplayOutcome>();
    ProjectReplayOutcome outcome;
    Result<PolicyVersion> version = request.versionId != 0
                                        ? (*reader.value)->policyVersion(request.versionId)
                                        : resolveVersion(writer.get(), **reader.value, request.policy, request.versionName);
    if (!version.ok())
        return version.failureAs<ProjectReplayOutcome>();
    outcome.version = *version.value;
    PolicySpec spec = ProjectPolicies::specFor(outcome.version, request.limits);
    if (const Result<std::unique_ptr<Policy>> compiled = spec.create(); !compiled)
        return Result<ProjectReplayOutcome>::failure(
            QStringLiteral("policy version \"%1\": %2").arg(outcome.version.name, compiled.error));

    Result<QList<ProjectWorld>> worlds = ProjectWorlds::load(**reader.value, &outcome.skippedIterations);
    if (!worlds.ok())
        return worlds.failureAs<ProjectReplayOutcome>();
    // The history worlds valued over: approximate ones only when asked.
    outcome.worlds = ValuationWorlds::historyOf(*worlds.value, request.includeApproximate, &outcome.approximateLeftOut);
    if (outcome.worlds.isEmpty()) {
        QString message = QStringLiteral("%1: no finished iteration to replay in").arg(request.project);
        if (outcome.skippedIterations > 0)
            message += QStringLiteral(" (%1 running or interrupted)").arg(outcome.skippedIterations);
        return Result<ProjectReplayOutcome>::failure(message);
    }
    const Result<StoredReplayConfig> config = (*reader.value)->replayConfig();
    if (!config.ok())
        return config.failureAs<ProjectReplayOutcome>();
    outcome.config = request.overrides.applyTo(config.value->config);
    outcome.overridden = !(outcome.config == config.value->config);
    // Imagined valuation (a what-if with steering aside): the version is
    // valued over C completions of every world, drawn with the request's seed.
    Result<ValuationWorlds> valued =
        request.applySteering ? Result<ValuationWorlds>::success(ValuationWorlds::revealed(outcome.worlds))
                              : ValuationWorlds::of(outcome.config, outcome.worlds, request.imagineSeed, request.options.threads);
    if (!valued)
        return valued.failureAs<ProjectReplayOutcome>();
    ValuationWorlds &set = *valued.value;
    if (request.applySteering) {
        for (qsizetype i = 0; i < set.history.size(); ++i) {
            const ProjectWorld &w = set.history.at(i);
            if (w.iteration == 0)
                continue;
            const Result<QList<SteeringEvent>> events = (*reader.value)->steeringEvents(w.iteration);
            if (!events.ok())
                return events.failureAs<ProjectReplayOutcome>();
            auto steering = std::make_shared<WorldSteering>(steeringOf(*events.value));
            if (!steering->isEmpty()) {
                set.worlds[i].steering = std::move(steering);
                ++outcome.steeredWorlds;
            }
        }
    }
    // In this process: the command line replays the code it was handed.
    VersionReplayJob job;
    job.version = outcome.version;
    job.worlds = set.worlds;
    job.config = outcome.config;
    job.completions = set.completions;
    job.options = request.options;
    job.limits = request.limits;
    job.randomSeed = request.seed;
    const SandboxedReplayOutcome replayed = VersionReplay::run(job, request.progress);
    if (!replayed.output)
        return Result<ProjectReplayOutcome>::failure(
            QStringLiteral("policy version \"%1\": %2").arg(outcome.version.name, replayed.error));
    outcome.result = replayed.output->result;
    // Sweeps over approximate worlds (or their completions) are labelled.
    set.labelApproximate(outcome.result);
    if (!storing)
        return Result<ProjectReplayOutcome>::success(std::move(outcome)); // a what-if or --no-store: nothing stored

    const QList<ReplayResultRecord> records = set.recordsOf(outcome.result, outcome.version.id);
    const Result<Done> stored = writer->storeReplayResults(records);
    if (stored.ok())
        outcome.storedRecords = int(records.size());
    else
        outcome.storeError = stored.error;
    return Result<ProjectReplayOutcome>::success(std::move(outcome));
}

} // namespace dreamrsi
