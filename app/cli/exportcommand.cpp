// `dreamrsi export`: a project's iterations as tree files or folders, a
// project bundle, or a tree file re-written canonically.
#include "commands.h"

#include "commandline.h"

#include "base/sqliteheader.h"
#include "import/runimport.h"
#include "loop/round/recordedpolicy.h"
#include "model/treejson.h"
#include "remote/remoteclient.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <optional>

namespace dreamrsi {

namespace {

const char *const exportUsage =
    "usage: dreamrsi export P.dreamrsi --iteration ID [-o OUT.json]   one iteration as a tree file\n"
    "       dreamrsi export P.dreamrsi --iteration ID --dir DIR       tree, round metadata and artifacts\n"
    "       dreamrsi export P.dreamrsi --iteration N --recorded-policy OUT.js\n"
    "                                          a policy that replays the iteration's batches exactly\n"
    "       dreamrsi export P.dreamrsi --all --dir DIR                every iteration as a tree file\n"
    "       dreamrsi export P.dreamrsi --bundle OUT.dreamrsi-bundle   the whole project as one file\n"
    "       dreamrsi export IN.json [-o OUT.json]                     re-write a tree file canonically\n"
    "       dreamrsi export http://HOST:PORT/ --token-file F --iteration ID [-o OUT.json]\n"
    "                                          one iteration of a project `dreamrsi serve` serves\n"
    "       dreamrsi export RUN [-o OUT.json] [--score METRIC]        an OpenEvolve folder or a ShinkaEvolve\n"
    "                                          database as a tree (README: Opening OpenEvolve and ShinkaEvolve runs)\n";

int exportUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi export: " << message << '\n' << exportUsage;
    return 2;
}

/// `export IN.json [-o OUT.json]`: the tree sorted by seq, defaults resolved, payload kept.
int rewriteTree(const QString &input, const QString &output, QTextStream &out, QTextStream &err)
{
    const TreeJson::ParseResult r = TreeJson::readFile(input);
    if (!r.ok()) {
        err << "error: " << r.error.message << '\n';
        return 1;
    }
    if (output.isEmpty()) {
        out << QString::fromUtf8(TreeJson::serialize(*r.tree));
        out.flush();
        return 0;
    }
    if (const Result<Done> written = TreeJson::writeFile(*r.tree, output); !written) {
        err << "error: " << written.error << '\n';
        return 1;
    }
    return 0;
}

/// `export RUN [-o OUT.json] [--score METRIC]`: a run read and mapped onto a tree.
int exportRun(const QString &run, const QString &output, const RunImport::Options &options, QTextStream &out,
              QTextStream &err)
{
    const Result<RunImport::Imported> imported = RunImport::read(run, options);
    if (!imported)
        return CommandLine::runtimeError(err, imported.error);
    for (const QString &note : imported.value->notes)
        err << "note: " << note << '\n';
    err.flush();
    if (output.isEmpty()) {
        out << QString::fromUtf8(TreeJson::serialize(imported.value->tree));
        out.flush();
        return 0;
    }
    if (const Result<Done> written = TreeJson::writeFile(imported.value->tree, output); !written)
        return CommandLine::runtimeError(err, written.error);
    return 0;
}

/// `export URL --token-file F --iteration ID [-o OUT.json]`: the served
/// project's iteration, the bytes its server answers (what export of the file prints).
int exportServed(const QString &url, const QString &tokenFile, const QString &iteration, const QString &output,
                 QTextStream &out, QTextStream &err)
{
    const Result<RemoteProject> remote = RemoteClient::open(url, tokenFile);
    if (!remote)
        return exportUsageError(err, remote.error);
    bool ok = false;
    const qint64 id = iteration.toLongLong(&ok);
    if (!ok || id < 1)
        return exportUsageError(err, QStringLiteral("--iteration needs an iteration id (see /api/v1/project), got '%1'").arg(iteration));
    const Result<QByteArray> tree = RemoteClient::get(*remote.value, QStringLiteral("/api/v1/iterations/%1/tree").arg(id), 120000);
    if (!tree)
        return CommandLine::runtimeError(err, tree.error);
    if (output.isEmpty()) {
        out << QString::fromUtf8(*tree.value);
        out.flush();
        return 0;
    }
    QFile file(output);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(*tree.value) != tree.value->size())
        return CommandLine::runtimeError(err, QStringLiteral("%1: %2").arg(output, file.errorString()));
    return 0;
}

} // namespace

int runProjectExportCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption iterationOption = CommandLine::value("iteration", "ID");
    const QCommandLineOption outOption = CommandLine::value("o,out", "FILE");
    const QCommandLineOption dirOption = CommandLine::value("dir", "DIR");
    const QCommandLineOption bundleOption = CommandLine::value("bundle", "FILE");
    const QCommandLineOption allOption = CommandLine::flag("all");
    const QCommandLineOption recordedOption = CommandLine::value("recorded-policy", "FILE");
    const QCommandLineOption scoreOption = CommandLine::value("score", "METRIC");
    const QCommandLineOption tokenOption = CommandLine::value("token-file", "F");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, {iterationOption, outOption, dirOption, bundleOption, allOption, recordedOption, scoreOption, tokenOption}, args, exportUsage, out,
                                                   [&err](const QString &why) { return exportUsageError(err, why); }))
        return *rc;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1)
        return exportUsageError(err, QStringLiteral("unexpected argument '%1'").arg(positional.at(1)));
    const QString output = parser.value(outOption);
    const QString dir = parser.value(dirOption);
    const QString bundle = parser.value(bundleOption);
    const bool all = parser.isSet(allOption);
    const QString recorded = parser.value(recordedOption);
    if (parser.isSet(recordedOption) && (recorded.isEmpty() || !parser.isSet(iterationOption) || all
                                         || parser.isSet(bundleOption) || parser.isSet(outOption) || parser.isSet(dirOption)))
        return exportUsageError(err, QStringLiteral("--recorded-policy OUT.js goes with --iteration N alone"));
    if (!positional.isEmpty() && RemoteClient::isUrl(positional.first())) {
        if (!parser.isSet(iterationOption) || parser.values(iterationOption).size() > 1 || all || parser.isSet(bundleOption)
            || parser.isSet(dirOption) || parser.isSet(recordedOption) || parser.isSet(scoreOption))
            return exportUsageError(err, QStringLiteral("a served project exports one iteration: URL --token-file F --iteration ID [-o OUT.json]"));
        return exportServed(positional.first(), parser.value(tokenOption), parser.value(iterationOption), output, out, err);
    }
    if (parser.isSet(tokenOption))
        return exportUsageError(err, QStringLiteral("--token-file goes with a server's URL (http://HOST:PORT/)"));
    const bool runForm = !positional.isEmpty() && !parser.isSet(iterationOption) && !all && !parser.isSet(bundleOption)
                         && !parser.isSet(recordedOption) && RunImport::looksLikeRunPath(positional.first());
    if (runForm) {
        if (parser.isSet(dirOption))
            return exportUsageError(err, QStringLiteral("--dir writes a project's iteration; '%1' is a run").arg(positional.first()));
        return exportRun(positional.first(), output, RunImport::Options{parser.value(scoreOption)}, out, err);
    }
    if (parser.isSet(scoreOption))
        return exportUsageError(err, QStringLiteral("--score is for runs only (an OpenEvolve folder or a ShinkaEvolve database)"));
    const bool projectForm = parser.isSet(iterationOption) || all || parser.isSet(bundleOption)
                             || (!positional.isEmpty() && hasSqliteHeader(positional.first()));
    if (!projectForm) {
        if (positional.isEmpty())
            return exportUsageError(err, QStringLiteral("give a project or a tree file"));
        if (parser.isSet(dirOption))
            return exportUsageError(err, QStringLiteral("--dir writes a project's iteration; '%1' is a tree file").arg(positional.first()));
        return rewriteTree(positional.first(), output, out, err);
    }

    std::optional<IterationId> iteration;
    for (const QString &v : parser.values(iterationOption)) {
        bool ok = false;
        iteration = v.toLongLong(&ok);
        if (!ok || *iteration < 1) {
            err << "error: --iteration needs an iteration id (see `dreamrsi ls P.dreamrsi`), got '" << v << "'\n";
            return 2;
        }
    }
    const int forms = int(iteration.has_value()) + int(all) + int(!bundle.isEmpty());
    if (positional.isEmpty())
        return exportUsageError(err, QStringLiteral("give the project file"));
    if (forms != 1)
        return exportUsageError(err, QStringLiteral("give one of --iteration, --all and --bundle"));
    if (all && dir.isEmpty())
        return exportUsageError(err, QStringLiteral("--all needs --dir DIR"));
    if (!bundle.isEmpty() && !(output.isEmpty() && dir.isEmpty()))
        return exportUsageError(err, QStringLiteral("--bundle takes neither -o nor --dir"));
    if (!output.isEmpty() && !dir.isEmpty())
        return exportUsageError(err, QStringLiteral("-o and --dir exclude each other"));
    const QString project = positional.first();

    if (!bundle.isEmpty()) {
        const StoreResult<Done> r = ProjectFiles::exportBundle(project, bundle);
        if (!r.ok())
            return CommandLine::runtimeError(err, r.error);
        out << "bundle written to " << QFileInfo(bundle).absoluteFilePath() << '\n';
        return 0;
    }
    StoreResult<std::unique_ptr<ProjectReader>> r = ProjectFiles::openReader(project);
    if (!r.ok())
        return CommandLine::runtimeError(err, r.error);
    ProjectReader &reader = **r.value;
    if (iteration && !recorded.isEmpty()) {
        const Result<QList<QStringList>> recordedBatches = RecordedPolicy::batches(reader, *iteration);
        const StoreResult<IterationInfo> info = reader.iteration(*iteration);
        if (!recordedBatches || !info.ok())
            return CommandLine::runtimeError(err, recordedBatches ? info.error : recordedBatches.error);
        const QList<QStringList> *batches = &*recordedBatches.value;
        QFile file(recorded);
        const QByteArray code =
            RecordedPolicy::script(*info.value, *batches, QStringLiteral("project %1").arg(QFileInfo(project).fileName())).toUtf8();
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(code) != code.size())
            return CommandLine::runtimeError(err, QStringLiteral("%1: %2").arg(recorded, file.errorString()));
        out << "recorded policy of iteration " << *iteration << " (" << batches->size() << " rounds) written to "
            << QFileInfo(recorded).absoluteFilePath() << '\n';
        return 0;
    }
    if (iteration) {
        if (!dir.isEmpty()) {
            const StoreResult<Done> done = ProjectFiles::exportIterationDir(reader, *iteration, dir);
            if (!done.ok())
                return CommandLine::runtimeError(err, done.error);
            out << "iteration " << *iteration << " written to " << QDir(dir).absolutePath() << '\n';
            return 0;
        }
        if (output.isEmpty()) {
            const StoreResult<DiscoveryTree> tree = reader.loadIteration(*iteration);
            if (!tree.ok())
                return CommandLine::runtimeError(err, tree.error);
            out << QString::fromUtf8(TreeJson::serialize(*tree.value));
            return 0;
        }
        const StoreResult<Done> done = ProjectFiles::exportTree(reader, *iteration, output);
        return done.ok() ? 0 : CommandLine::runtimeError(err, done.error);
    }
    const StoreResult<QList<IterationInfo>> its = reader.iterations();
    if (!its.ok())
        return CommandLine::runtimeError(err, its.error);
    if (!QDir().mkpath(dir)) {
        err << "error: " << dir << ": cannot create the folder\n";
        return 1;
    }
    for (const IterationInfo &it : *its.value) {
        const QString file = QDir(dir).filePath(QStringLiteral("iteration-%1.json").arg(it.id));
        const StoreResult<Done> done = ProjectFiles::exportTree(reader, it.id, file);
        if (!done.ok())
            return CommandLine::runtimeError(err, done.error);
        out << file << '\n';
    }
    return 0;
}

} // namespace dreamrsi
