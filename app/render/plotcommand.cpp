// `dreamrsi plot`: argument reading only; the figures are written by the
// views library (writePlot), offscreen.
#include "commands.h"

#include "commandline.h"

#include "plotrequest.h"

#include "remote/remoteclient.h"

#include <QTemporaryDir>

#include <algorithm>
#include <memory>

namespace dreamrsi {

namespace {

const char Usage[] =
    "usage: dreamrsi plot frontier|anytime|tree (--project P | --world W.json ...) [--versions a,b]\n"
    "                     [--select WORLD|ITERATION] [--beta B] [--full-axis] [--width-mm W] [--height-mm H]\n"
    "                     [--dpi D] [--data FILE.csv] --out FIG\n"
    "       dreamrsi plot progress --project P [--label NAME] [--project Q [--label NAME2] ...] [sizes]\n"
    "                     [--data FILE.csv] --out FIG\n"
    "       dreamrsi plot progress --simulation OUT.json [sizes] [--data FILE.csv] --out FIG\n"
    "       dreamrsi plot compare (--project P [--iterations A-B] | --run RUN | --world T.json) [--label L] ...\n"
    "                     --x calls|usd|seconds [--score METRIC] [--token-file F] [sizes] [--data FILE.csv] --out FIG\n"
    "  FIG ends in .pdf, .svg or .png. Versions: project version names, or builtin:NAME / P.js with --world.\n"
    "  frontier: the mean over all worlds, or one world with --select (or when only one is given); the\n"
    "  attainment axis fits the points drawn, or runs from 0 to 1 with --full-axis.\n"
    "  --select takes a world's name or its iteration number. Frontier and anytime figures name the\n"
    "  series only; their numbers go to a caption table beside the figure (FIG.table.tex) and to stdout.\n"
    "  --data FILE.csv writes the numbers behind the figure (points, staircase membership, curves, cells,\n"
    "  progress steps and iteration starts), one row per plotted point, with a header naming each column.\n"
    "  progress: best score against cumulative agent calls, one curve per project (a run of `dreamrsi loop`,\n"
    "  e.g. a Dream-RSI run and its --fixed baseline), marked where each iteration starts; --label names the\n"
    "  curve of the --project before it (default: the project's name).\n"
    "  progress --simulation: the JSON `dreamrsi loop --worlds … --json` printed; each arm (Dream-RSI, fixed\n"
    "  exploration) as the mean over the repeats of attainment (top) and cumulative calls (bottom) against\n"
    "  the iteration, with the 95 % interval shaded (cut to 0–1 and 0 up, both edges outlined).\n"
    "  compare: best score so far against cumulative agent calls, agent cost (USD) or elapsed seconds, one\n"
    "  curve per source: a project's iterations (--iterations: ids A to B, both included), an OpenEvolve\n"
    "  folder or ShinkaEvolve database (--run), or a tree file (--world); cells in creation order. A --label\n"
    "  names the source just before it (default: the source's own name); sources with the same label are\n"
    "  seeds of one setting, drawn as their mean with a Student-t 95 % band where all seeds have data.\n"
    "  A source that did not record the axis (no cost, no timestamps) is named on stderr and in the legend,\n"
    "  not drawn. An OpenEvolve checkpoint is a population snapshot (its survivors, not every call): by\n"
    "  calls it is drawn against the iteration each program was found (iteration_found), labelled so, or\n"
    "  refused, naming the run's db/ folder. --score METRIC scores cells by that metric. A --project may be\n"
    "  the URL of a project `dreamrsi serve` serves (http://HOST:PORT/), read with the token in --token-file\n"
    "  (docs/remote.md): its iterations' trees, as the file's.\n"
    "  --data: label,source,x,best,lo,hi,population_snapshot, one row per cell, then each label's mean rows\n"
    "  (source \"mean\").\n";

/// Applies one option of `plot compare` (docs/compare.md): sources in the
/// order given, a --label or --iterations to the source just before it.
/// Returns what is wrong, empty when the option is good.
QString applyCompare(const CommandLine::Given &o, PlotRequest *r)
{
    using Kind = CompareSourceSpec::Kind;
    const auto source = [&](Kind kind) {
        if (o.value.isEmpty())
            return QStringLiteral("--%1 needs a path").arg(o.typed);
        r->compareSources.append(CompareSourceSpec{kind, o.value, std::nullopt, QString()});
        return QString();
    };
    if (o.name == QLatin1String("project"))
        return source(Kind::Project);
    if (o.name == QLatin1String("run"))
        return source(Kind::Run);
    if (o.name == QLatin1String("world"))
        return source(Kind::Tree);
    if (o.name == QLatin1String("label")) {
        if (r->compareSources.isEmpty())
            return QStringLiteral("--label %1 names the source before it; give --project, --run or --world first").arg(o.value);
        if (!r->compareSources.last().label.isEmpty())
            return QStringLiteral("%1 has two labels (%2, %3)").arg(r->compareSources.last().path, r->compareSources.last().label, o.value);
        if (o.value.isEmpty())
            return QStringLiteral("--label needs a name");
        r->compareSources.last().label = o.value;
        return {};
    }
    if (o.name == QLatin1String("iterations")) {
        if (r->compareSources.isEmpty() || r->compareSources.last().kind != Kind::Project || r->compareSources.last().iterations)
            return QStringLiteral("--iterations %1 goes once after a --project").arg(o.value);
        const QStringList ends = o.value.split(QLatin1Char('-'));
        bool okA = false, okB = false;
        const IterationId a = ends.value(0).toLongLong(&okA);
        const IterationId b = ends.size() == 1 ? a : ends.value(1).toLongLong(&okB);
        if (ends.size() == 1)
            okB = okA;
        if (ends.size() > 2 || !okA || !okB || a < 1 || b < a)
            return QStringLiteral("--iterations takes iteration ids A-B with 1 <= A <= B (see `dreamrsi ls P`), got '%1'").arg(o.value);
        r->compareSources.last().iterations = std::pair{a, b};
        return {};
    }
    if (o.name == QLatin1String("x")) {
        const std::optional<CompareAxis> axis = CompareCurves::axisFromName(o.value);
        if (!axis)
            return QStringLiteral("--x takes calls, usd or seconds, got '%1'").arg(o.value);
        r->compareAxis = *axis;
        return {};
    }
    if (o.name == QLatin1String("score")) {
        if (o.value.isEmpty())
            return QStringLiteral("--score needs a metric name");
        r->scoreMetric = o.value;
        return {};
    }
    if (o.name == QLatin1String("token-file"))
        return {}; // read with the served --project sources, below
    if (o.name == QLatin1String("data"))
        r->dataPath = o.value;
    else if (o.name == QLatin1String("out"))
        r->outPath = o.value;
    else if (o.name == QLatin1String("width-mm") || o.name == QLatin1String("height-mm") || o.name == QLatin1String("dpi")) {
        bool ok = false;
        const double v = o.value.toDouble(&ok);
        if (!ok || v <= 0)
            return QStringLiteral("bad value for --%1: '%2'").arg(o.typed, o.value);
        if (o.name == QLatin1String("width-mm"))
            r->options.sizeMm.setWidth(v);
        else if (o.name == QLatin1String("height-mm"))
            r->options.sizeMm.setHeight(v);
        else
            r->options.dpi = int(v);
    } else {
        return QStringLiteral("--%1 does not go with compare").arg(o.typed);
    }
    return {};
}

/// A served project (`--project URL`, docs/remote.md) read as the compare
/// reads a project file: its iterations (those of `spec.iterations`) copied
/// into a project in `dir` (RemoteClient::copyIterations), so the compare
/// reads it exactly as it reads a file. The spec is pointed at it.
QString fetchServed(CompareSourceSpec *spec, const QString &tokenFile, const QString &dir)
{
    const Result<RemoteProject> remote = RemoteClient::open(spec->path, tokenFile);
    if (!remote)
        return remote.error;
    const Result<QString> path = RemoteClient::copyIterations(*remote.value, dir, spec->iterations);
    if (!path)
        return path.error;
    spec->path = *path.value;
    spec->iterations.reset(); // the project holds those alone
    return {};
}

/// Applies one option to the request; false when its value is bad.
bool apply(const CommandLine::Given &o, PlotRequest *r)
{
    bool ok = true;
    if (o.name == QLatin1String("project")) {
        r->project = o.value;
        r->projects.append(o.value);
        r->labels.append(QString());
    } else if (o.name == QLatin1String("label")) {
        if (r->projects.isEmpty())
            return false; // a label names the --project before it
        r->labels.last() = o.value;
    } else if (o.name == QLatin1String("simulation")) {
        r->simulation = o.value;
    } else if (o.name == QLatin1String("world")) {
        r->worldPaths.append(o.value);
    } else if (o.name == QLatin1String("versions")) {
        r->versionNames = o.value.split(QLatin1Char(','), Qt::SkipEmptyParts);
    } else if (o.name == QLatin1String("select")) {
        r->select = o.value;
    } else if (o.name == QLatin1String("data")) {
        r->dataPath = o.value;
    } else if (o.name == QLatin1String("out")) {
        r->outPath = o.value;
    } else if (o.name == QLatin1String("beta")) {
        r->beta = o.value.toDouble(&ok);
        ok = ok && r->beta >= 0 && r->beta <= 1;
    } else if (o.name == QLatin1String("width-mm")) {
        r->options.sizeMm.setWidth(o.value.toDouble(&ok));
    } else if (o.name == QLatin1String("height-mm")) {
        r->options.sizeMm.setHeight(o.value.toDouble(&ok));
    } else if (o.name == QLatin1String("full-axis")) {
        r->fullAttainmentAxis = true;
    } else if (o.name == QLatin1String("dpi")) {
        r->options.dpi = o.value.toInt(&ok);
    }
    return ok;
}

} // namespace

int runPlotCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty()) {
        err << Usage;
        return 2;
    }
    if (args.contains(QLatin1String("--help")) || args.contains(QLatin1String("-h"))) {
        out << Usage;
        return 0;
    }
    PlotRequest request;
    request.kind = args.first();
    const QStringList kinds{QStringLiteral("frontier"), QStringLiteral("anytime"), QStringLiteral("tree"),
                            QStringLiteral("progress"), QStringLiteral("compare")};
    if (!kinds.contains(request.kind)) {
        err << "dreamrsi plot: unknown figure '" << request.kind << "'\n" << Usage;
        return 2;
    }
    using CommandLine::value;
    const QList<QCommandLineOption> options{value("project", "P"),  value("label", "NAME"),   value("world", "FILE"),
                                            value("versions", "A,B"), value("select", "WORLD"), value("data", "FILE"),
                                            value("out", "FIG"),      value("beta", "B"),       value("width-mm", "W"),
                                            value("height-mm", "H"),  value("dpi", "D"),
                                            value("simulation", "FILE"), CommandLine::flag("full-axis"),
                                            value("run", "RUN"),      value("iterations", "A-B"), value("x", "AXIS"),
                                            value("score", "METRIC"), value("token-file", "F")};
    QCommandLineParser parser;
    CommandLine::Problem problem;
    switch (CommandLine::parse(parser, options, args.mid(1), &problem)) {
    case CommandLine::Outcome::Help:
        out << Usage;
        return 0;
    case CommandLine::Outcome::Error:
        if (problem.kind != CommandLine::Problem::Kind::MissingValue) {
            err << "dreamrsi plot: unknown option '" << problem.argument << "'\n" << Usage;
            return 2;
        }
        if (problem.argument.endsWith(QLatin1String("-data"))) {
            err << "dreamrsi plot: --data needs a file (the CSV to write)\n" << Usage;
            return 2;
        }
        err << "dreamrsi plot: bad or missing value for " << problem.argument << '\n';
        return 2;
    case CommandLine::Outcome::Run:
        break;
    }
    if (!parser.positionalArguments().isEmpty()) {
        err << "dreamrsi plot: unknown option '" << parser.positionalArguments().constFirst() << "'\n" << Usage;
        return 2;
    }
    if (request.kind == QLatin1String("compare")) {
        for (const CommandLine::Given &o : CommandLine::inOrder(parser, options)) {
            if (const QString wrong = applyCompare(o, &request); !wrong.isEmpty()) {
                err << "dreamrsi plot: " << wrong << '\n';
                return 2;
            }
        }
        if (request.compareSources.isEmpty() || request.outPath.isEmpty() || !parser.isSet(QStringLiteral("x"))) {
            err << "dreamrsi plot: compare needs sources (--project, --run, --world), --x and --out\n" << Usage;
            return 2;
        }
        if (!FigureExport::formatForPath(request.outPath)) {
            err << "dreamrsi plot: " << request.outPath << ": use .pdf, .svg or .png\n";
            return 2;
        }
        // Served projects are read into temporary projects first.
        const bool served = std::any_of(request.compareSources.cbegin(), request.compareSources.cend(), [](const CompareSourceSpec &s) {
            return s.kind == CompareSourceSpec::Kind::Project && RemoteClient::isUrl(s.path);
        });
        if (served != parser.isSet(QStringLiteral("token-file"))) {
            err << "dreamrsi plot: "
                << (served ? "a served project needs its token: --token-file F (docs/remote.md)"
                           : "--token-file goes with a --project given as a server's URL (http://HOST:PORT/)")
                << '\n';
            return 2;
        }
        std::unique_ptr<QTemporaryDir> fetched;
        if (served) {
            fetched = std::make_unique<QTemporaryDir>();
            if (!fetched->isValid()) {
                err << "dreamrsi plot: cannot make a temporary folder\n";
                return 1;
            }
            for (CompareSourceSpec &s : request.compareSources) {
                if (s.kind != CompareSourceSpec::Kind::Project || !RemoteClient::isUrl(s.path))
                    continue;
                if (const Result<QUrl> base = RemoteClient::baseOf(s.path); !base) {
                    err << "dreamrsi plot: " << base.error << '\n';
                    return 2;
                }
                if (const QString why = fetchServed(&s, parser.value(QStringLiteral("token-file")), fetched->path()); !why.isEmpty()) {
                    err << "dreamrsi plot: " << why << '\n';
                    return 1;
                }
            }
        }
        return writePlot(request, out, err);
    }
    for (const QString &only : {QStringLiteral("run"), QStringLiteral("iterations"), QStringLiteral("x"), QStringLiteral("score"),
                                QStringLiteral("token-file")}) {
        if (parser.isSet(only)) {
            err << "dreamrsi plot: --" << only << " goes with compare alone\n";
            return 2;
        }
    }
    for (const CommandLine::Given &o : CommandLine::inOrder(parser, options)) {
        if (!apply(o, &request)) {
            err << "dreamrsi plot: bad or missing value for --" << o.typed << '\n';
            return 2;
        }
    }
    if (!request.simulation.isEmpty()) {
        if (request.kind != QLatin1String("progress") || !request.projects.isEmpty() || !request.worldPaths.isEmpty()) {
            err << "dreamrsi plot: --simulation goes with progress alone (no --project, no --world)\n";
            return 2;
        }
        if (request.outPath.isEmpty()) {
            err << "dreamrsi plot: give --out\n" << Usage;
            return 2;
        }
        if (!FigureExport::formatForPath(request.outPath)) {
            err << "dreamrsi plot: " << request.outPath << ": use .pdf, .svg or .png\n";
            return 2;
        }
        return writePlot(request, out, err);
    }
    if (request.outPath.isEmpty() || (request.project.isEmpty() == request.worldPaths.isEmpty())) {
        err << "dreamrsi plot: give --out and either --project or --world\n" << Usage;
        return 2;
    }
    if (!FigureExport::formatForPath(request.outPath)) {
        err << "dreamrsi plot: " << request.outPath << ": use .pdf, .svg or .png\n";
        return 2;
    }
    if (request.kind == QLatin1String("progress") && request.projects.isEmpty()) {
        err << "dreamrsi plot: progress needs --project (one per run) or --simulation\n";
        return 2;
    }
    if (request.fullAttainmentAxis && request.kind != QLatin1String("frontier")) {
        err << "dreamrsi plot: --full-axis goes with frontier alone\n";
        return 2;
    }
    if (request.kind != QLatin1String("progress") && request.projects.size() > 1) {
        err << "dreamrsi plot: " << request.kind << " takes one --project (several are for progress)\n";
        return 2;
    }
    return writePlot(request, out, err);
}

} // namespace dreamrsi
