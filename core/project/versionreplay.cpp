// One replay of a policy version, in this process or in a child process.
#include "versionreplay.h"

#include "projectpolicies.h"
#include "projectscores.h"

#include "replay/replayengine.h"
#include "replay/replayprocess.h"

#include <QHash>

namespace dreamrsi {

namespace {

/// What a replay reports for a version whose script does not compile: the
/// error in every world's sweep (as a child replay reports it).
std::shared_ptr<ReplayProcessOutput> failedEverywhere(const VersionReplayJob &job, const ReplayOptions &options,
                                                      const QString &error)
{
    auto output = std::make_shared<ReplayProcessOutput>();
    output->result.policy = job.version.name;
    output->result.lambda = options.lambda;
    output->result.workers = options.workers;
    output->result.betas = options.betas;
    output->result.maxRounds = options.maxRounds;
    for (const ReplayWorld &w : job.worlds) {
        SweepResult sweep;
        sweep.world = w.name;
        sweep.error = error;
        output->result.worlds.append(sweep);
    }
    return output;
}

SandboxedReplayOutcome runHere(const VersionReplayJob &job, const ReplayOptions &options,
                               const VersionReplay::Progress &progress, const std::atomic_bool *cancel)
{
    PolicySpec spec = ProjectPolicies::specFor(job.version, job.limits);
    if (job.randomSeed)
        spec.setRandomSeed(*job.randomSeed);
    SandboxedReplayOutcome outcome;
    Result<std::unique_ptr<Policy>> compiled = spec.create();
    if (!compiled) {
        outcome.output = failedEverywhere(job, options, compiled.error);
        return outcome;
    }
    auto output = std::make_shared<ReplayProcessOutput>();
    output->result = ReplayEngine::runWorlds(job.worlds, spec, options, progress, cancel, std::move(*compiled.value));
    if (cancel && cancel->load()) {
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return outcome;
    }
    if (options.trace) {
        for (const SweepResult &s : std::as_const(output->result.worlds)) {
            for (const EpisodeResult &e : s.episodes) {
                output->traces.append(e);
                output->traceWorlds.append(s.world);
            }
        }
    }
    outcome.output = std::move(output);
    return outcome;
}

SandboxedReplayOutcome runInChild(const VersionReplayJob &job, const ReplayOptions &options,
                                  const VersionReplay::Progress &progress, const std::atomic_bool *cancel)
{
    ReplayProcessRequest request;
    if (job.worldPaths.isEmpty())
        request.worlds = job.worlds;
    else
        request.worldPaths = job.worldPaths;
    // The project's rule, as the child understands it: a built-in's exact twin runs as the built-in.
    request.policyArgument = ProjectPolicies::processArgumentFor(job.version);
    if (request.policyArgument.isEmpty())
        request.policySource = job.version.code;
    request.workers = options.workers;
    request.lambda = options.lambda;
    request.betas = options.betas;
    request.maxRounds = options.maxRounds.value_or(0);
    request.threads = options.threads;
    request.trace = options.trace;
    request.limits = job.limits;
    request.program = job.program;
    const std::atomic_bool never{false};
    SandboxedReplayOutcome outcome = runSandboxedReplay(request, cancel ? *cancel : never, progress);
    if (!outcome.output || job.worldPaths.isEmpty())
        return outcome;
    // Results name the worlds as the job does, not by the files the child read.
    QHash<QString, QString> nameOf;
    for (qsizetype i = 0; i < job.worldPaths.size() && i < job.worlds.size(); ++i)
        nameOf.insert(job.worldPaths.at(i), job.worlds.at(i).name);
    auto renamed = std::make_shared<ReplayProcessOutput>(*outcome.output);
    for (SweepResult &s : renamed->result.worlds)
        s.world = nameOf.value(s.world, s.world);
    for (QString &name : renamed->traceWorlds)
        name = nameOf.value(name, name);
    outcome.output = std::move(renamed);
    return outcome;
}

} // namespace

SandboxedReplayOutcome VersionReplay::run(const VersionReplayJob &job, const Progress &progress,
                                          const std::atomic_bool *cancel)
{
    // The one mapping of a replay configuration onto replay options.
    const ReplayOptions options = ProjectScores::optionsFor(job.config, job.options);
    SandboxedReplayOutcome outcome = job.where == VersionReplayJob::Where::InProcess
                                         ? runHere(job, options, progress, cancel)
                                         : runInChild(job, options, progress, cancel);
    if (outcome.output && job.completions > 0) {
        auto marked = std::make_shared<ReplayProcessOutput>(*outcome.output);
        marked->result.completions = job.completions;
        marked->result.rule = job.config.rule;
        outcome.output = std::move(marked);
    }
    return outcome;
}

} // namespace dreamrsi
