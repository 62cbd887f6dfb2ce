// `dreamrsi imagine`: the imagined completions of history worlds, written as
// tree files, and the world model they were drawn from (docs/online.md#valuation).
#include "commands.h"

#include "commandline.h"
#include "optionvalues.h"

#include "model/treejson.h"
#include "project/projectworlds.h"
#include "project/valuationworlds.h"
#include "store/projectfiles.h"
#include "store/projectreader.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace dreamrsi {

namespace {

const char *const imagineUsage =
    "usage: dreamrsi imagine (--world T.json [--world T.json …] | --project P) --out DIR [--seed S]\n"
    "                        [--completions C] [--directions d0,d1,…] [--rule capped|widened|uncertain|anchored]\n"
    "                        [--no-cap] [--threads N] [--json]\n"
    "Fits the world model on every revealed cell of the history worlds (the files in the order given, or\n"
    "the project's replay worlds in iteration order), draws C completions of each (default 8, seed 0)\n"
    "and writes completion k of world j as DIR/h<j>_k<k>.json. Revealed cells are kept exactly; every\n"
    "other (branch, attempt) of a world's grid is imagined (\"imagined\": true), its score capped at the\n"
    "best score the history revealed unless --no-cap. --rule widened (docs/online.md, imagination rules)\n"
    "lifts that cap by the largest gain the task has shown at depths the history is blind to, and draws\n"
    "there from the depth's own few gains too; --rule uncertain draws a gain there from the depth's own\n"
    "few gains or else from a prior as wide as the task's first scores are spread (twice their standard\n"
    "deviation, S), up to the cap plus S; --rule anchored does so only within 4 attempts of the deepest\n"
    "depth where the history gained (capped further out); capped (the default) is the rule of the test\n"
    "vectors.\n"
    "A branch explores the direction its cells are\n"
    "tagged with, else d[b mod n] of --directions, else of the worlds' task when it is known.\n"
    "One model is fitted per task (the worlds' `task`; worlds without one form a group of their own),\n"
    "with its own cap, and each world is completed by its task's model. --json prints the fitted\n"
    "models (model.models: [{task, worlds, model}]) and which world each j is.\n";

int imagineUsageError(QTextStream &err, const QString &message)
{
    err << "dreamrsi imagine: " << message << '\n' << imagineUsage;
    return 2;
}

} // namespace

int runImagineCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    using CommandLine::flag;
    using CommandLine::value;
    const QList<QCommandLineOption> options{value("world", "T.json"), value("project", "P"),      value("out", "DIR"),
                                            value("seed", "S"),       value("completions", "C"),  value("directions", "LIST"),
                                            flag("no-cap"),           value("threads", "N"),      flag("json"),
                                            value("rule", "NAME")};
    QCommandLineParser parser;
    if (const std::optional<int> answered = CommandLine::parseOrAnswer(
            parser, options, args, imagineUsage, out, [&err](const QString &why) { return imagineUsageError(err, why); }))
        return *answered;
    if (!parser.positionalArguments().isEmpty())
        return imagineUsageError(err, QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().constFirst()));

    const QStringList worldPaths = parser.values(QStringLiteral("world"));
    const QString project = parser.value(QStringLiteral("project"));
    if (worldPaths.isEmpty() == project.isEmpty())
        return imagineUsageError(err, QStringLiteral("give either --world files or --project"));
    const QString outDir = parser.value(QStringLiteral("out"));
    if (outDir.isEmpty())
        return imagineUsageError(err, QStringLiteral("--out DIR is required"));
    quint64 seed = 0;
    if (parser.isSet(QStringLiteral("seed"))) {
        bool ok = false;
        seed = parser.value(QStringLiteral("seed")).toULongLong(&ok);
        if (!ok)
            return imagineUsageError(err, QStringLiteral("--seed must be a non-negative integer (got '%1')").arg(parser.value(QStringLiteral("seed"))));
    }
    // C read as every command reads it (its bounds included); 8 by default, as a new project's.
    OptionValues::ReplayConfigFlags flags;
    flags.workers.clear();
    flags.lambda.clear();
    flags.betas.clear();
    flags.rounds.clear();
    flags.valuation.clear();
    const Result<OptionValues::ReplayConfigFlags::Read> read = flags.read(parser);
    if (!read)
        return imagineUsageError(err, read.error);
    const int count = read.value->overrides.completions.value_or(ReplayConfig().completions);
    int threads = 0;
    if (parser.isSet(QStringLiteral("threads"))) {
        const Result<qint64> t = OptionValues::integer(QStringLiteral("--threads"), parser.value(QStringLiteral("threads")), 1, 1024);
        if (!t)
            return imagineUsageError(err, t.error);
        threads = int(*t.value);
    }
    ImaginationOptions imagination;
    imagination.cap = !parser.isSet(QStringLiteral("no-cap"));
    if (parser.isSet(QStringLiteral("rule"))) {
        const Result<ImaginationRule> rule = OptionValues::imaginationRule(QStringLiteral("--rule"), parser.value(QStringLiteral("rule")));
        if (!rule)
            return imagineUsageError(err, rule.error);
        imagination.rule = *rule.value;
    }
    if (parser.isSet(QStringLiteral("directions"))) {
        for (const QString &d : parser.value(QStringLiteral("directions")).split(QLatin1Char(','))) {
            if (d.trimmed().isEmpty())
                return imagineUsageError(err, QStringLiteral("--directions: an empty direction name in '%1'").arg(parser.value(QStringLiteral("directions"))));
            imagination.directions.append(d.trimmed());
        }
    }

    // The history, j = 0, 1, … in the order given or in iteration order.
    QList<ReplayWorld> history;
    QJsonArray sources;
    if (!project.isEmpty()) {
        if (!QFileInfo(project).isFile())
            return CommandLine::runtimeError(err, QStringLiteral("%1: no such project file").arg(project));
        StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectFiles::openReader(project);
        if (!reader.ok())
            return CommandLine::runtimeError(err, reader.error);
        Result<QList<ProjectWorld>> worlds = ProjectWorlds::load(**reader.value);
        if (!worlds)
            return CommandLine::runtimeError(err, worlds.error);
        if (worlds.value->isEmpty())
            return CommandLine::runtimeError(err, QStringLiteral("%1: no finished iteration to imagine").arg(project));
        for (const ProjectWorld &w : *worlds.value) {
            history.append(ReplayWorld{w.name, w.tree});
            const std::optional<qint64> number = w.tree->meta().iteration;
            sources.append(QJsonObject{{QStringLiteral("j"), int(history.size() - 1)},
                                       {QStringLiteral("name"), w.name},
                                       {QStringLiteral("iteration_id"), double(w.iteration)},
                                       {QStringLiteral("iteration"), number ? QJsonValue(double(*number)) : QJsonValue()}});
        }
    } else {
        QList<TreeJson::ParseResult> read = TreeJson::readFiles(worldPaths);
        for (qsizetype i = 0; i < read.size(); ++i) {
            if (!read[i].ok())
                return CommandLine::runtimeError(err, QStringLiteral("%1: %2").arg(worldPaths.at(i), read[i].error.message));
            history.append(ReplayWorld{worldPaths.at(i), std::make_shared<const DiscoveryTree>(std::move(*read[i].tree))});
            sources.append(QJsonObject{{QStringLiteral("j"), int(i)}, {QStringLiteral("path"), worldPaths.at(i)}});
        }
    }

    Result<ImaginedHistory> imagined = ValuationWorlds::imagine(history, seed, count, threads, imagination);
    if (!imagined)
        return CommandLine::runtimeError(err, imagined.error);
    if (!QDir().mkpath(outDir))
        return CommandLine::runtimeError(err, QStringLiteral("cannot create folder '%1'").arg(outDir));
    QJsonArray files;
    for (qsizetype i = 0; i < imagined.value->completions.size(); ++i) {
        const Imagination::CompletionPlace p = Imagination::placeOf(i, count);
        const QString path = QDir(outDir).filePath(QStringLiteral("h%1_k%2.json").arg(p.world).arg(p.completion));
        if (const Result<Done> written = TreeJson::writeFile(*imagined.value->completions.at(i).tree, path); !written)
            return CommandLine::runtimeError(err, written.error);
        files.append(path);
    }
    // One model per task (docs/online.md#valuation): say each, so that a
    // history of several tasks shows that none borrows another's scores.
    const WorldModels &models = imagined.value->model;
    err << "imagine: " << count << " completions of each of " << history.size() << " worlds in " << outDir
        << " (seed " << seed << ", " << models.groups().size() << (models.groups().size() == 1 ? " model" : " models, one per task")
        << ")\n";
    for (const WorldModels::Group &g : models.groups()) {
        const WorldModel &model = g.model;
        err << "  " << (g.task ? QStringLiteral("task ") + *g.task : QStringLiteral("no task")) << ": " << g.worlds.size()
            << (g.worlds.size() == 1 ? " world" : " worlds") << ", cap "
            << (model.cap() ? QString::number(*model.cap(), 'g', 10) : QStringLiteral("none")) << ", directions "
            << (model.options().directions.isEmpty() ? QStringLiteral("from the worlds' tags")
                                                     : model.options().directions.join(QLatin1Char(',')))
            << '\n';
    }
    if (parser.isSet(QStringLiteral("json"))) {
        // Which task's model completed each world.
        for (qsizetype j = 0; j < sources.size(); ++j) {
            QJsonObject w = sources.at(j).toObject();
            const int g = models.groupOf(int(j));
            const std::optional<QString> task = g >= 0 ? models.groups().at(g).task : std::nullopt;
            w.insert(QStringLiteral("task"), task ? QJsonValue(*task) : QJsonValue());
            sources[j] = w;
        }
        const QJsonObject o{{QStringLiteral("seed"), QString::number(seed)},
                            {QStringLiteral("completions"), count},
                            {QStringLiteral("worlds"), sources},
                            {QStringLiteral("files"), files},
                            {QStringLiteral("model"), models.toJson()}};
        out << QJsonDocument(o).toJson(QJsonDocument::Indented);
    }
    out.flush();
    return 0;
}

} // namespace dreamrsi
