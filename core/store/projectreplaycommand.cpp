// `dreamrsi replay --project`: the replay engine over a project's stored
// worlds, with the results written back into the project.
#include "storecommands.h"

#include "projectreader.h"
#include "projectwriter.h"

#include "policy/builtinpolicies.h"
#include "policy/policyspec.h"
#include "replay/replaycommand.h"
#include "replay/replayengine.h"

#include <QFile>
#include <QFileInfo>

namespace dreamrsi {

namespace {

const char *const usage =
    "usage: dreamrsi replay --project P.dreamrsi --policy NAME|FILE.js|builtin:NAME [--name VERSION]\n"
    "                       [--workers 10] [--lambda 0.1] [--betas 0,0.25,0.5,0.75,1] [--rounds K]\n"
    "                       [--json] [--trace FILE] [--time-limit-ms 2000] [--seed N] [--threads T]\n"
    "                       [--no-grid-plan] [--progress]\n"
    "Replays a policy version in every finished iteration of the project and stores the results.\n"
    "NAME is a stored policy version (see `dreamrsi ls P policies`); a .js file or builtin:NAME is\n"
    "first stored as a version.\n";

struct ResolvedPolicy
{
    PolicyVersion version;
    PolicySpec spec;
};

/// Finds or adds the policy version `argument` names; fills *error on failure.
std::optional<ResolvedPolicy> resolvePolicy(ProjectWriter &writer, ProjectReader &reader, const QString &argument,
                                            const QString &nameOption, QString *error)
{
    const bool builtin = argument.startsWith(QLatin1String("builtin:"));
    const bool file = !builtin && argument.endsWith(QLatin1String(".js")) && QFileInfo::exists(argument);
    if (!builtin && !file) {
        StoreResult<PolicyVersion> stored = reader.policyVersionByName(argument);
        if (!stored.ok()) {
            *error = stored.error + QStringLiteral(" (give a stored version name, a .js file or builtin:NAME)");
            return std::nullopt;
        }
        const PolicyVersion &v = *stored.value;
        const QString builtinName = v.name.mid(8);
        if (v.origin == PolicyOrigin::Builtin && v.name.startsWith(QLatin1String("builtin:"))
            && BuiltinPolicies::names().contains(builtinName))
            return ResolvedPolicy{v, PolicySpec::builtin(builtinName)};
        return ResolvedPolicy{v, PolicySpec::script(v.code, v.name)};
    }

    std::optional<PolicySpec> spec = PolicySpec::fromArgument(argument, error);
    if (!spec)
        return std::nullopt;
    PolicyVersion v;
    if (builtin) {
        const QString name = argument.mid(8);
        v.name = nameOption.isEmpty() ? argument : nameOption;
        v.origin = PolicyOrigin::Builtin;
        v.code = BuiltinPolicies::javaScriptSource(name);
    } else {
        QFile f(argument);
        if (!f.open(QIODevice::ReadOnly)) {
            *error = QStringLiteral("%1: cannot read: %2").arg(argument, f.errorString());
            return std::nullopt;
        }
        v.code = QString::fromUtf8(f.readAll());
        v.name = nameOption.isEmpty() ? QFileInfo(argument).completeBaseName() : nameOption;
        v.origin = PolicyOrigin::Human;
    }
    StoreResult<PolicyVersion> existing = reader.policyVersionByName(v.name);
    if (existing.ok()) {
        if (existing.value->code != v.code) {
            *error = QStringLiteral("policy version \"%1\" is already stored with different code; "
                                    "name this one with --name")
                         .arg(v.name);
            return std::nullopt;
        }
        return ResolvedPolicy{*existing.value, *spec};
    }
    StoreResult<PolicyVersionId> id = writer.addPolicyVersion(v);
    if (!id.ok()) {
        *error = id.error;
        return std::nullopt;
    }
    v.id = *id.value;
    return ResolvedPolicy{v, *spec};
}

} // namespace

int runProjectReplayCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.contains(QLatin1String("--help"))) {
        out << usage;
        return 0;
    }
    QString error;
    std::optional<ReplayCommandOptions> options = parseReplayOptions(args, &error, true);
    if (!options) {
        err << "error: " << error << '\n' << usage;
        return 2;
    }
    QString project, nameOption;
    const QStringList &extra = options->unhandled;
    for (int i = 0; i < extra.size(); ++i) {
        if (extra.at(i) == QLatin1String("--project") && i + 1 < extra.size()) {
            project = extra.at(++i);
        } else if (extra.at(i) == QLatin1String("--name") && i + 1 < extra.size()) {
            nameOption = extra.at(++i);
        } else {
            err << "error: unknown argument '" << extra.at(i) << "'\n" << usage;
            return 2;
        }
    }
    if (project.isEmpty() || options->policyArgument.isEmpty()) {
        err << usage;
        return 2;
    }
    if (!options->worldPaths.isEmpty()) {
        err << "error: --world and --project cannot be combined; the worlds of a project are its iterations\n";
        return 2;
    }

    StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(project);
    if (!writer.ok()) {
        err << "error: " << writer.error << '\n';
        return 1;
    }
    StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(project);
    if (!reader.ok()) {
        err << "error: " << reader.error << '\n';
        return 1;
    }
    std::optional<ResolvedPolicy> policy =
        resolvePolicy(**writer.value, **reader.value, options->policyArgument, nameOption, &error);
    if (!policy) {
        err << "error: " << error << '\n';
        return 1;
    }
    policy->spec.setTimeLimitMs(options->timeLimitMs);
    policy->spec.setRandomSeed(options->seed);

    const StoreResult<QList<IterationInfo>> iterations = (*reader.value)->iterations();
    if (!iterations.ok()) {
        err << "error: " << iterations.error << '\n';
        return 1;
    }
    QList<ReplayWorld> worlds;
    QList<IterationId> worldIds;
    int skipped = 0;
    for (const IterationInfo &it : *iterations.value) {
        if (it.status != IterationStatus::Finished) {
            ++skipped; // a round still running or interrupted is not a frozen world yet
            continue;
        }
        StoreResult<DiscoveryTree> tree = (*reader.value)->loadIteration(it.id);
        if (!tree.ok()) {
            err << "error: " << tree.error << '\n';
            return 1;
        }
        worlds.append(ReplayWorld{QStringLiteral("iteration %1").arg(it.id),
                                  std::make_shared<const DiscoveryTree>(std::move(*tree.value))});
        worldIds.append(it.id);
    }
    if (worlds.isEmpty()) {
        err << "error: " << project << ": no finished iteration to replay in";
        if (skipped > 0)
            err << " (" << skipped << " running or interrupted)";
        err << '\n';
        return 1;
    }

    ReplayEngine::Progress progress;
    if (options->progress)
        progress = [&err](int done, int total) { err << "progress " << done << '/' << total << '\n' << Qt::flush; };
    const ReplayResult result = ReplayEngine::runWorlds(worlds, policy->spec, options->replay, progress);

    QList<ReplayResultRecord> records;
    for (qsizetype w = 0; w < result.worlds.size() && w < worldIds.size(); ++w) {
        for (const EpisodeResult &e : result.worlds.at(w).episodes) {
            records.append(replayResultRecord(e, policy->version.id, worldIds.at(w), options->replay.workers,
                                              options->replay.lambda, options->replay.maxRounds));
        }
    }
    const StoreResult<Done> stored = (*writer.value)->storeReplayResults(records);
    int rc = printReplayResult(result, *options, out, err);
    if (!stored.ok()) {
        err << "error: " << stored.error << '\n';
        return 1;
    }
    err << "stored " << records.size() << " results of policy version " << policy->version.id << " \""
        << policy->version.name << "\" over " << worlds.size() << " worlds";
    if (skipped > 0)
        err << " (" << skipped << " running or interrupted iterations skipped)";
    err << '\n';
    return rc;
}

} // namespace dreamrsi
