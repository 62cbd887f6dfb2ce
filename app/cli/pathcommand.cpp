// `dreamrsi path`: the path from the initial program to a cell, as Markdown
// with diffs or as JSON (docs/compare.md#the-path-to-the-best).
#include "pathcommand.h"

#include "commandline.h"

#include "base/sqliteheader.h"
#include "import/runimport.h"
#include "model/cellpath.h"
#include "model/treejson.h"
#include "remote/remoteclient.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace dreamrsi {

namespace {

const char *const pathUsage =
    "usage: dreamrsi path P.dreamrsi --iteration ID [--cell ID] [--format md|json]\n"
    "       dreamrsi path http://HOST:PORT/ --token-file F --iteration ID [--cell ID] [--format md|json]\n"
    "       dreamrsi path RUN [--score METRIC] [--cell ID] [--format md|json]\n"
    "       dreamrsi path T.json [--cell ID] [--format md|json]\n"
    "  The chain of programs from the initial program to the cell (default: the best), each step with\n"
    "  its score, its gain (over its parent, or past a failed parent over the nearest scored program\n"
    "  before it), its proposal's first lines and (Markdown) its unified diff to the parent. An imported\n"
    "  run (an OpenEvolve folder, a ShinkaEvolve database) follows each program's real parent, through\n"
    "  forks. A project `dreamrsi serve` serves is read at its URL with the token in --token-file\n"
    "  (docs/remote.md). --iteration takes an iteration id (see `dreamrsi ls P`); --cell a\n"
    "  cell id of the tree (b3a2). --format json: {\"path\": [{\"id\", \"score\", \"gain\"}, ...]} from the\n"
    "  first cell after the initial program to the chosen cell; md (the default): Markdown.\n";

int pathUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi path: " << message << '\n' << pathUsage;
    return 2;
}

} // namespace

int runPathCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    const QCommandLineOption iterationOption = CommandLine::value("iteration", "ID");
    const QCommandLineOption cellOption = CommandLine::value("cell", "ID");
    const QCommandLineOption formatOption = CommandLine::value("format", "md|json");
    const QCommandLineOption scoreOption = CommandLine::value("score", "METRIC");
    const QCommandLineOption tokenOption = CommandLine::value("token-file", "F");
    QCommandLineParser parser;
    if (const auto rc = CommandLine::parseOrAnswer(parser, {iterationOption, cellOption, formatOption, scoreOption, tokenOption}, args,
                                                   pathUsage, out, [&err](const QString &why) { return pathUsageError(err, why); }))
        return *rc;
    const QStringList positional = parser.positionalArguments();
    if (positional.isEmpty())
        return pathUsageError(err, QStringLiteral("give a project, a run or a tree file"));
    if (positional.size() > 1)
        return pathUsageError(err, QStringLiteral("unexpected argument '%1'").arg(positional.at(1)));
    const QString format = parser.isSet(formatOption) ? parser.value(formatOption) : QStringLiteral("md");
    if (format != QLatin1String("md") && format != QLatin1String("json"))
        return pathUsageError(err, QStringLiteral("--format takes md or json, got '%1'").arg(format));
    const QString source = positional.first();
    const bool isServed = RemoteClient::isUrl(source);
    if (isServed != parser.isSet(tokenOption))
        return pathUsageError(err, isServed ? QStringLiteral("a served project needs its token: --token-file F (docs/remote.md)")
                                        : QStringLiteral("--token-file goes with a server's URL (http://HOST:PORT/)"));
    const bool isRun = !isServed && RunImport::looksLikeRunPath(source);
    const bool isProject = isServed || (!isRun && hasSqliteHeader(source));
    if (isProject != parser.isSet(iterationOption))
        return pathUsageError(err, isProject ? QStringLiteral("%1 is a project: give --iteration ID").arg(source)
                                         : QStringLiteral("--iteration goes with a project file"));
    if (parser.isSet(scoreOption) && !isRun)
        return pathUsageError(err, QStringLiteral("--score is for runs only (an OpenEvolve folder or a ShinkaEvolve database)"));

    // The tree, named as the source is.
    std::shared_ptr<const DiscoveryTree> tree;
    QString title = QFileInfo(source).completeBaseName();
    if (isProject) {
        bool ok = false;
        const IterationId iteration = parser.value(iterationOption).toLongLong(&ok);
        if (!ok || iteration < 1)
            return pathUsageError(err, QStringLiteral("--iteration needs an iteration id (see `dreamrsi ls P`), got '%1'")
                                       .arg(parser.value(iterationOption)));
        if (isServed) {
            // The served iteration is the export's tree (docs/remote.md#get-apiv1iterationsntree).
            const Result<RemoteProject> remote = RemoteClient::open(source, parser.value(tokenOption));
            if (!remote)
                return pathUsageError(err, remote.error);
            const Result<QByteArray> bytes = RemoteClient::get(*remote.value, QStringLiteral("/api/v1/iterations/%1/tree").arg(iteration), 120000);
            if (!bytes)
                return CommandLine::runtimeError(err, bytes.error);
            Result<DiscoveryTree> parsed = TreeJson::parse(*bytes.value).toResult();
            if (!parsed)
                return CommandLine::runtimeError(err, QStringLiteral("%1: %2").arg(remote.value->host(), parsed.error));
            tree = std::make_shared<const DiscoveryTree>(std::move(*parsed.value));
            // The project's own name, as for the file.
            const Result<QJsonObject> project = RemoteClient::getJson(*remote.value, QStringLiteral("/api/v1/project"));
            if (!project)
                return CommandLine::runtimeError(err, project.error);
            title = project.value->value(QStringLiteral("name")).toString();
        } else {
            StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(source);
            if (!reader.ok())
                return CommandLine::runtimeError(err, reader.error);
            StoreResult<DiscoveryTree> loaded = (*reader.value)->loadIteration(iteration);
            if (!loaded.ok())
                return CommandLine::runtimeError(err, loaded.error);
            tree = std::make_shared<const DiscoveryTree>(std::move(*loaded.value));
        }
        title = QStringLiteral("%1, iteration %2").arg(title).arg(iteration);
    } else {
        Result<RunImport::Imported> read = RunImport::readTreeOrRun(source, RunImport::Options{parser.value(scoreOption)});
        if (!read)
            return CommandLine::runtimeError(err, read.error);
        for (const QString &note : std::as_const(read.value->notes))
            err << "note: " << note << '\n';
        if (isRun)
            title = RunImport::worldName(source);
        tree = std::make_shared<const DiscoveryTree>(std::move(read.value->tree));
    }

    int cell = tree->bestCellIndex();
    if (parser.isSet(cellOption)) {
        cell = tree->indexOfId(parser.value(cellOption));
        if (cell < 0)
            return CommandLine::runtimeError(err, QStringLiteral("%1 has no cell '%2'").arg(title, parser.value(cellOption)));
    } else if (cell < 0) {
        return CommandLine::runtimeError(err, QStringLiteral("%1 has no cells").arg(title));
    }
    const CellPath::Path path = CellPath::to(*tree, cell);
    if (path.fromOrphan)
        err << "note: the path starts at an orphan (" << tree->cells().at(path.steps.first().cell).id
            << "): its parent program is missing from the run\n";
    if (format == QLatin1String("json"))
        out << QString::fromUtf8(QJsonDocument(CellPath::toJson(*tree, path)).toJson(QJsonDocument::Indented));
    else
        out << CellPath::toMarkdown(*tree, path, title);
    out.flush();
    return 0;
}

} // namespace dreamrsi
