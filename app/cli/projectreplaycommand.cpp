// `dreamrsi replay --project`: argument parsing only; the project layer replays.
#include "projectreplaycommand.h"
#include "commandline.h"
#include "optionvalues.h"
#include "replayoutput.h"


#include "project/projectreplay.h"

#include <QCommandLineParser>

namespace dreamrsi {

namespace {

const char *const projectReplayUsage =
    "usage: dreamrsi replay --project P.dreamrsi --policy NAME|FILE.js|builtin:NAME [--name VERSION]\n"
    "                       [--workers W] [--lambda L] [--betas B,...] [--rounds K]\n"
    "                       [--json] [--trace FILE] [--time-limit-ms 2000] [--seed N] [--threads T]\n"
    "                       [--no-grid-plan] [--progress] [--apply-steering] [--include-approximate]\n"
    "                       [--no-store]\n"
    "Replays a policy version in every finished iteration of the project and stores the results.\n"
    "NAME is a stored policy version (see `dreamrsi ls P policies`); a .js file or builtin:NAME is\n"
    "first stored as a version. builtin:NAME is today's built-in: when an older build stored\n"
    "builtin:NAME with other code, today's is stored beside it as builtin:NAME@<hash of its code>,\n"
    "and the old version keeps its results. --no-store prints the results and writes nothing (a\n"
    "project of an older build is read as it is). It replays under the project's replay configuration (see\n"
    "`dreamrsi project config`); --workers, --lambda, --betas and --rounds override it for this run\n"
    "only, and its results are stored under the configuration they were computed with.\n"
    "--apply-steering applies what people did to each iteration's live round (branches closed,\n"
    "cells pinned first; docs/steering.md): a what-if whose results are printed, not stored.\n"
    "Approximate worlds (imported runs with forks or orphans, docs/tree-format.md#imported-runs) are\n"
    "left out unless --include-approximate; results over them are labelled.\n";

QCommandLineOption valueOption(const char *name)
{
    return QCommandLineOption(QString::fromLatin1(name), QString(), QStringLiteral("value"));
}

} // namespace

int runProjectReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption project = valueOption("project"), policy = valueOption("policy"), name = valueOption("name"),
                             workers = valueOption("workers"), lambda = valueOption("lambda"), betas = valueOption("betas"),
                             rounds = valueOption("rounds"), trace = valueOption("trace"),
                             timeLimit = valueOption("time-limit-ms"), seed = valueOption("seed"),
                             threads = valueOption("threads"), world = valueOption("world");
    const QCommandLineOption json(QStringLiteral("json")), noGridPlan(QStringLiteral("no-grid-plan")),
        progress(QStringLiteral("progress")), applySteering(QStringLiteral("apply-steering")),
        includeApproximate(QStringLiteral("include-approximate")), noStore(QStringLiteral("no-store"));
    parser.addOptions({project, policy, name, workers, lambda, betas, rounds, trace, timeLimit, seed, threads,
                       world, json, noGridPlan, progress, applySteering, includeApproximate, noStore});
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, {}, args, projectReplayUsage, out, [&](const CommandLine::Problem &problem) {
                err << "error: " << problem.message << '\n' << projectReplayUsage;
                return 2;
            }))
        return *answered;
    if (!parser.positionalArguments().isEmpty()) {
        err << "error: unknown argument '" << parser.positionalArguments().first() << "'\n" << projectReplayUsage;
        return 2;
    }
    if (parser.isSet(world)) {
        err << "error: --world and --project cannot be combined; the worlds of a project are its iterations\n";
        return 2;
    }
    if (parser.value(project).isEmpty() || parser.value(policy).isEmpty()) {
        err << "error: give --project and --policy\n" << projectReplayUsage;
        return 2;
    }

    ReplayPrinting printing; // how the result is printed (shared with `replay --world`)
    ProjectReplayRequest request;
    request.project = parser.value(project);
    request.policy = parser.value(policy);
    request.versionName = parser.value(name);
    auto bad = [&err](const QCommandLineOption &o) {
        err << "error: bad value for --" << o.names().first() << '\n' << projectReplayUsage;
        return 2;
    };
    bool ok = true;
    // W, λ, β and K are the project's replay configuration; a flag overrides
    // it for this run only.
    OptionValues::ReplayConfigFlags flags;
    flags.valuation.clear(); // the project's valuation: `project config` changes it
    flags.completions.clear();
    const Result<OptionValues::ReplayConfigFlags::Read> read = flags.read(parser);
    if (!read) {
        err << "error: " << read.error << '\n' << projectReplayUsage;
        return 2;
    }
    request.overrides = read.value->overrides;
    if (parser.isSet(timeLimit) && ((request.limits.callMs = parser.value(timeLimit).toInt(&ok)) < 1 || !ok))
        return bad(timeLimit);
    if (parser.isSet(seed)) {
        request.seed = parser.value(seed).toUInt(&ok);
        if (!ok)
            return bad(seed);
    }
    if (parser.isSet(threads) && ((request.options.threads = parser.value(threads).toInt(&ok)) < 0 || !ok))
        return bad(threads);
    request.options.useGridPlan = !parser.isSet(noGridPlan);
    request.applySteering = parser.isSet(applySteering);
    request.noStore = parser.isSet(noStore);
    request.includeApproximate = parser.isSet(includeApproximate);
    printing.json = parser.isSet(json);
    printing.tracePath = parser.value(trace);
    request.options.trace = !printing.tracePath.isEmpty();
    if (parser.isSet(progress))
        request.progress = [&err](int done, int total) { err << "progress " << done << '/' << total << '\n' << Qt::flush; };

    const Result<ProjectReplayOutcome> outcome = ProjectReplay::run(request);
    if (!outcome.ok()) {
        err << "error: " << outcome.error << '\n';
        return 1;
    }
    const ProjectReplayOutcome &o = *outcome.value;
    if (o.approximateLeftOut > 0)
        err << "note: " << o.approximateLeftOut << " approximate world" << (o.approximateLeftOut == 1 ? "" : "s")
            << " left out (imported runs with forks or orphans); --include-approximate replays them\n";
    int rc = printReplayResult(o.result, printing, out, err);
    if (!o.storeError.isEmpty()) {
        err << "error: " << o.storeError << '\n';
        return 1;
    }
    if (request.applySteering) {
        err << "replayed policy version " << o.version.id << " \"" << o.version.name << "\" over " << o.worlds.size()
            << " worlds with their steering applied (" << o.steeredWorlds << " of them steered) under "
            << o.config.label() << "; the results are not stored\n";
        return rc;
    }
    if (request.noStore) {
        err << "replayed policy version \"" << o.version.name << "\"" << (o.version.id == 0 ? " (not stored)" : "")
            << " over " << o.worlds.size() << " worlds under " << o.config.label() << "; --no-store: nothing was written\n";
        return rc;
    }
    err << "stored " << o.storedRecords << " results of policy version " << o.version.id << " \"" << o.version.name
        << "\" over " << o.worlds.size() << " worlds";
    if (o.skippedIterations > 0)
        err << " (" << o.skippedIterations << " running or interrupted iterations skipped)";
    err << " under " << o.config.label()
        << (o.overridden ? QStringLiteral(" (overrides the project's replay configuration for this run; the project's "
                                          "values do not include these results)")
                         : QStringLiteral(" (the project's replay configuration)"))
        << '\n';
    return rc;
}

} // namespace dreamrsi
