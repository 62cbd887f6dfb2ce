// `dreamrsi import`: tree files as iterations, a policy script as a version,
// or a bundle unpacked into a new project.
#include "commands.h"

#include "commandline.h"

#include "import/runimport.h"
#include "store/projectfiles.h"
#include "store/projectwriter.h"

#include <QFileInfo>

#include <algorithm>

namespace dreamrsi {

namespace {

const char *const importUsage =
    "usage: dreamrsi import P.dreamrsi TREE.json|RUN... [--score METRIC]\n"
    "                                          store trees and runs as iterations (all or none); a RUN is an\n"
    "                                          OpenEvolve folder or a ShinkaEvolve database\n"
    "       dreamrsi import P.dreamrsi --policy FILE.js --name NAME [--origin human|agent|builtin] [--parent NAME]\n"
    "       dreamrsi import --bundle B.dreamrsi-bundle NEW.dreamrsi   unpack a bundle into a new project\n";

int importUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi import: " << message << '\n' << importUsage;
    return 2;
}

} // namespace

int runImportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption bundle = CommandLine::value("bundle", "FILE");
    const QCommandLineOption policy = CommandLine::value("policy", "FILE");
    const QCommandLineOption name = CommandLine::value("name", "NAME");
    const QCommandLineOption origin = CommandLine::value("origin", "ORIGIN");
    const QCommandLineOption parent = CommandLine::value("parent", "NAME");
    const QCommandLineOption score = CommandLine::value("score", "METRIC");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, {bundle, policy, name, origin, parent, score}, args, importUsage, out,
                                                   [&err](const QString &why) { return importUsageError(err, why); }))
        return *rc;
    const QStringList positional = parser.positionalArguments();
    if (args.isEmpty()) {
        err << importUsage;
        return 2;
    }

    if (parser.isSet(score) && (parser.isSet(bundle) || parser.isSet(policy)))
        return importUsageError(err, QStringLiteral("--score is for runs only (an OpenEvolve folder or a ShinkaEvolve database)"));
    if (parser.isSet(bundle)) {
        if (parser.isSet(policy) || parser.isSet(name) || parser.isSet(origin) || parser.isSet(parent))
            return importUsageError(err, QStringLiteral("--bundle takes a bundle and a new project file, nothing else"));
        if (positional.size() != 1)
            return importUsageError(err, QStringLiteral("--bundle B.dreamrsi-bundle needs one new project file"));
        const StoreResult<Done> r = ProjectFiles::importBundle(parser.value(bundle), positional.first());
        if (!r.ok())
            return CommandLine::runtimeError(err, r.error);
        out << "unpacked " << parser.value(bundle) << " into " << QFileInfo(positional.first()).absoluteFilePath() << '\n';
        return 0;
    }

    if (parser.isSet(policy)) {
        if (positional.size() != 1 || parser.value(policy).isEmpty())
            return importUsageError(err, QStringLiteral("--policy FILE.js stores one script in one project"));
        ProjectFiles::PolicyFileImport import;
        import.file = parser.value(policy);
        import.name = parser.value(name);
        import.parentName = parser.value(parent);
        if (parser.isSet(origin)) {
            const std::optional<PolicyOrigin> o = policyOriginFromName(parser.value(origin));
            if (!o) {
                err << "error: --origin must be human, agent or builtin (got '" << parser.value(origin) << "')\n";
                return 2;
            }
            import.origin = *o;
        }
        const StoreResult<PolicyVersion> v = ProjectFiles::importPolicyFile(positional.first(), import);
        if (!v.ok())
            return CommandLine::runtimeError(err, v.error);
        out << "policy version " << v.value->id << " \"" << v.value->name << "\" added\n";
        return 0;
    }

    if (parser.isSet(name) || parser.isSet(origin) || parser.isSet(parent))
        return importUsageError(err, QStringLiteral("--name, --origin and --parent describe a --policy"));
    if (positional.size() < 2)
        return importUsageError(err, QStringLiteral("give the project and at least one tree file"));
    const QString project = positional.first();
    const QStringList trees = positional.mid(1);
    const bool anyRun = std::any_of(trees.cbegin(), trees.cend(), &RunImport::looksLikeRunPath);
    if (parser.isSet(score) && !anyRun)
        return importUsageError(err, QStringLiteral("--score is for runs only (an OpenEvolve folder or a ShinkaEvolve database)"));
    // Every tree and run is read before the project is opened: one bad input stores nothing.
    QList<DiscoveryTree> read;
    QStringList sources;
    if (anyRun) {
        const RunImport::Options options{parser.value(score)};
        for (const QString &path : trees) {
            Result<RunImport::Imported> one = RunImport::readTreeOrRun(path, options);
            if (!one)
                return CommandLine::runtimeError(err, one.error + QStringLiteral(" (nothing was imported)"));
            for (const QString &note : one.value->notes)
                err << "note: " << note << '\n';
            read.append(std::move(one.value->tree));
            sources.append(one.value->framework ? RunImport::worldName(path) : QFileInfo(path).fileName());
        }
    }
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(project);
    if (!w.ok())
        return CommandLine::runtimeError(err, w.error);
    const StoreResult<QList<IterationId>> ids = anyRun ? (*w.value)->importTrees(read, sources)
                                                       : ProjectFiles::importTreeFiles(**w.value, trees);
    if (!ids.ok())
        return CommandLine::runtimeError(err, ids.error);
    for (qsizetype i = 0; i < trees.size(); ++i)
        out << trees.at(i) << ": stored as iteration " << ids.value->at(i) << '\n';
    return 0;
}

} // namespace dreamrsi
