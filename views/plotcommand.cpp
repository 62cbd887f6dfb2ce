#include "plotcommand.h"

#include "figuredata.h"
#include "figureexport.h"
#include "figurelayout.h"
#include "model/treejson.h"
#include "plotstyle.h"
#include "policy/policyspec.h"
#include "qcp.h"
#include "replay/replayengine.h"
#include "replayjobs.h"
#include "project/projectprogress.h"
#include "project/projectsnapshot.h"
#include "progressplot.h"
#include "store/projectreader.h"
#include "treerenderer.h"
#include "worldselection.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace dreamrsi {

namespace {
const char Usage[] =
    "usage: dreamrsi plot frontier|anytime|tree (--project P | --world W.json ...) [--versions a,b]\n"
    "                     [--select WORLD|ITERATION] [--beta B] [--width-mm W] [--height-mm H] [--dpi D]\n"
    "                     [--data FILE.csv] --out FIG\n"
    "       dreamrsi plot progress --project P [--label NAME] [--project Q [--label NAME2] ...] [sizes]\n"
    "                     [--data FILE.csv] --out FIG\n"
    "  FIG ends in .pdf, .svg or .png. Versions: project version names, or builtin:NAME / P.js with --world.\n"
    "  frontier: the mean over all worlds, or one world with --select (or when only one is given).\n"
    "  --select takes a world's name or its iteration number. Frontier and anytime figures name the\n"
    "  series only; their numbers go to a caption table beside the figure (FIG.table.tex) and to stdout.\n"
    "  --data FILE.csv writes the numbers behind the figure (points, staircase membership, curves, cells,\n"
    "  progress steps and iteration starts), one row per plotted point, with a header naming each column.\n"
    "  progress: best score against cumulative agent calls, one curve per project (a run of `dreamrsi loop`,\n"
    "  e.g. a Dream-RSI run and its --fixed baseline), marked where each iteration starts; --label names the\n"
    "  curve of the --project before it (default: the project's name).\n";

/// Writes the numbers behind a figure when --data asked for them.
bool writeData(const QString &dataPath, const FigureTable &data, QTextStream &out, QTextStream &err)
{
    if (dataPath.isEmpty())
        return true;
    QString error;
    if (!FigureExport::writeText(dataPath, data.toCsv(), &error)) {
        err << "dreamrsi plot: " << error << '\n';
        return false;
    }
    out << dataPath << '\n';
    return true;
}

// `plot progress`: one curve per project, in the order given.
int writeProgress(const QStringList &projects, const QStringList &labels, const QString &outPath,
                  FigureExport::Options options, const QString &dataPath, QTextStream &out, QTextStream &err)
{
    if (projects.isEmpty()) {
        err << "dreamrsi plot: progress needs --project (one per run)\n";
        return 2;
    }
    QList<ProgressCurve> curves;
    for (qsizetype i = 0; i < projects.size(); ++i) {
        const QString &path = projects.at(i);
        auto reader = ProjectReader::open(path);
        if (!reader.ok()) {
            err << "dreamrsi plot: " << path << ": " << reader.error << '\n';
            return 1;
        }
        ProjectReader &r = **reader.value;
        auto info = r.projectInfo();
        auto list = info.ok() ? r.iterations() : StoreResult<QList<IterationInfo>>::failure(info.error);
        if (!list.ok()) {
            err << "dreamrsi plot: " << path << ": " << list.error << '\n';
            return 1;
        }
        QList<IterationInfo> ordered = *list.value;
        std::stable_sort(ordered.begin(), ordered.end(), [](const IterationInfo &a, const IterationInfo &b) { return a.id < b.id; });
        QList<IterationData> data;
        for (const IterationInfo &it : std::as_const(ordered)) {
            auto d = r.iterationData(it.id);
            if (!d.ok()) {
                err << "dreamrsi plot: " << path << ": iteration " << it.id << ": " << d.error << '\n';
                return 1;
            }
            data.append(*d.value);
        }
        if (data.isEmpty()) {
            err << "dreamrsi plot: " << path << ": the project has no iterations\n";
            return 1;
        }
        QString label = labels.value(i);
        if (label.isEmpty())
            label = info.value->name.isEmpty() ? QFileInfo(path).completeBaseName() : info.value->name;
        curves.append(ProjectProgress::curvesByTask(label, data));
    }
    QCustomPlot plot;
    plot.resize(FigureExport::logicalSize(options.sizeMm).toSize());
    ProgressPlot::populate(&plot, curves, false);
    options.title = QStringLiteral("Progress");
    QString error;
    if (!FigureExport::write(outPath, options, FigureLayout::painterFor(&plot), &error)) {
        err << "dreamrsi plot: " << error << '\n';
        return 1;
    }
    out << outPath << '\n';
    const FigureTable table = ProgressPlot::table(curves);
    const QString tablePath = FigureExport::captionTablePath(outPath);
    if (!FigureExport::writeText(tablePath, table.toLatex(), &error)) {
        err << "dreamrsi plot: " << error << '\n';
        return 1;
    }
    out << tablePath << '\n' << table.toText();
    return writeData(dataPath, FigureData::progress(curves), out, err) ? 0 : 1;
}

struct Inputs
{
    QList<WorldEntry> worlds;
    QList<PolicyVersion> versions;
    QHash<PolicyVersionId, ReplayResultPtr> stored;
};
} // namespace

int runPlotCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    if (args.isEmpty() || args.contains(QStringLiteral("--help"))) {
        (args.isEmpty() ? err : out) << Usage;
        return args.isEmpty() ? 2 : 0;
    }
    const QString kind = args.first();
    if (kind != QLatin1String("frontier") && kind != QLatin1String("anytime") && kind != QLatin1String("tree")
        && kind != QLatin1String("progress")) {
        err << "dreamrsi plot: unknown figure '" << kind << "'\n" << Usage;
        return 2;
    }
    QString project, outPath, select, dataPath;
    QStringList worldPaths, versionNames, projects, labels;
    double beta = 0.5;
    FigureExport::Options options;
    AppSettings settings;
    for (int i = 1; i < args.size(); ++i) {
        const QString a = args.at(i);
        auto value = [&](QString *target) {
            if (i + 1 >= args.size())
                return false;
            *target = args.at(++i);
            return true;
        };
        QString v;
        bool ok = true;
        if (a == QLatin1String("--project")) {
            ok = value(&project);
            projects.append(project);
            labels.append(QString());
        } else if (a == QLatin1String("--label")) {
            ok = value(&v) && !projects.isEmpty();
            if (ok)
                labels.last() = v;
        } else if (a == QLatin1String("--world")) {
            ok = value(&v);
            worldPaths.append(v);
        } else if (a == QLatin1String("--versions")) {
            ok = value(&v);
            versionNames = v.split(QLatin1Char(','), Qt::SkipEmptyParts);
        } else if (a == QLatin1String("--select")) {
            ok = value(&select);
        } else if (a == QLatin1String("--data")) {
            if (!value(&dataPath)) {
                err << "dreamrsi plot: --data needs a file (the CSV to write)\n" << Usage;
                return 2;
            }
        } else if (a == QLatin1String("--out")) {
            ok = value(&outPath);
        } else if (a == QLatin1String("--beta")) {
            ok = value(&v);
            beta = v.toDouble(&ok);
            ok = ok && beta >= 0 && beta <= 1;
        } else if (a == QLatin1String("--width-mm") || a == QLatin1String("--height-mm")) {
            ok = value(&v);
            const double mm = v.toDouble(&ok);
            if (a == QLatin1String("--width-mm"))
                options.sizeMm.setWidth(mm);
            else
                options.sizeMm.setHeight(mm);
        } else if (a == QLatin1String("--dpi")) {
            ok = value(&v);
            options.dpi = v.toInt(&ok);
        } else {
            err << "dreamrsi plot: unknown option '" << a << "'\n" << Usage;
            return 2;
        }
        if (!ok) {
            err << "dreamrsi plot: bad or missing value for " << a << '\n';
            return 2;
        }
    }
    if (outPath.isEmpty() || (project.isEmpty() == worldPaths.isEmpty())) {
        err << "dreamrsi plot: give --out and either --project or --world\n" << Usage;
        return 2;
    }
    if (!FigureExport::formatForPath(outPath)) {
        err << "dreamrsi plot: " << outPath << ": use .pdf, .svg or .png\n";
        return 2;
    }
    if (kind == QLatin1String("progress"))
        return writeProgress(projects, labels, outPath, options, dataPath, out, err);
    if (projects.size() > 1) {
        err << "dreamrsi plot: " << kind << " takes one --project (several are for progress)\n";
        return 2;
    }

    // Worlds, versions and (for a project) stored results.
    Inputs in;
    if (!project.isEmpty()) {
        auto reader = ProjectReader::open(project);
        if (!reader.ok()) {
            err << "dreamrsi plot: " << reader.error << '\n';
            return 1;
        }
        // The project layer decides the worlds (finished iterations), their
        // names and the versions' stored values, as in the workbench.
        auto snapshot = ProjectSnapshot::load(**reader.value);
        if (!snapshot.ok()) {
            err << "dreamrsi plot: " << snapshot.error << '\n';
            return 1;
        }
        for (const ProjectWorld &w : std::as_const(snapshot.value->worlds))
            in.worlds.append({w.name, QString(), w.iteration, w.tree});
        for (const PolicyVersion &pv : std::as_const(snapshot.value->versions)) {
            if (versionNames.isEmpty() || versionNames.contains(pv.name))
                in.versions.append(pv);
        }
        in.stored = snapshot.value->results;
        for (const QString &n : versionNames) {
            bool found = false;
            for (const PolicyVersion &pv : std::as_const(in.versions))
                found = found || pv.name == n;
            if (!found) {
                err << "dreamrsi plot: the project has no policy version '" << n << "'\n";
                return 1;
            }
        }
    } else {
        for (const QString &path : worldPaths) {
            auto parsed = TreeJson::readFile(path);
            if (!parsed.ok()) {
                err << "dreamrsi plot: " << parsed.error.message << '\n';
                return 1;
            }
            in.worlds.append({QFileInfo(path).completeBaseName(), path, 0,
                              std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))});
        }
        if (versionNames.isEmpty()) {
            in.versions = ReplayJobs::builtinVersions();
        } else {
            for (const QString &n : versionNames) {
                QString error;
                const auto spec = PolicySpec::fromArgument(n, &error);
                if (!spec) {
                    err << "dreamrsi plot: " << error << '\n';
                    return 1;
                }
                PolicyVersion pv;
                pv.name = n;
                pv.code = spec->kind() == PolicySpec::Kind::Script ? spec->source() : QString();
                if (spec->kind() == PolicySpec::Kind::Builtin) {
                    for (const PolicyVersion &b : ReplayJobs::builtinVersions()) {
                        if (b.name == n)
                            pv.code = b.code;
                    }
                }
                in.versions.append(pv);
            }
        }
    }
    if (in.worlds.isEmpty()) {
        err << "dreamrsi plot: no worlds to plot\n";
        return 1;
    }
    int selected = 0;
    if (!select.isEmpty()) {
        QString why;
        selected = selectWorld(in.worlds, select, &why);
        if (selected < 0) {
            err << "dreamrsi plot: " << why << '\n';
            return 1;
        }
    }
    QList<ReplayWorld> worlds;
    for (const WorldEntry &w : std::as_const(in.worlds))
        worlds.append({w.name, w.tree});

    QString error;
    bool written = false;
    FigureTable table; // the numbers the figure's compact legend leaves out
    FigureTable data;  // every plotted number, for --data
    if (kind == QLatin1String("tree")) {
        data = FigureData::tree(in.worlds.at(selected).name, *in.worlds.at(selected).tree);
        TreeRenderer renderer;
        renderer.setTree(in.worlds.at(selected).tree);
        options.title = in.worlds.at(selected).name;
        written = FigureExport::write(outPath, options, [&renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); },
                                      &error);
    } else {
        if (in.versions.isEmpty()) {
            err << "dreamrsi plot: no policy versions to plot\n";
            return 1;
        }
        QCustomPlot plot;
        plot.resize(FigureExport::logicalSize(options.sizeMm).toSize());
        if (kind == QLatin1String("frontier")) {
            QList<FrontierSeries> series;
            for (const PolicyVersion &pv : std::as_const(in.versions)) {
                ReplayResultPtr r = in.stored.value(pv.id);
                if (!r || r->worlds.size() != worlds.size()) {
                    err << "replaying " << pv.name << " in " << worlds.size() << " world(s)…\n";
                    err.flush();
                    auto result = std::make_shared<ReplayResult>(
                        ReplayEngine::runWorlds(worlds, ReplayJobs::specFor(pv, settings), ReplayJobs::optionsFrom(settings)));
                    r = result;
                }
                if (!r->ok())
                    err << "warning: " << pv.name << ": " << r->firstError() << '\n';
                series.append({pv.name, r});
            }
            const QString world = (!select.isEmpty() || worlds.size() == 1) ? in.worlds.at(selected).name : QString();
            PlotStyle::populateFrontier(&plot, series, world, false);
            table = PlotStyle::frontierTable(series, world);
            data = FigureData::frontier(series);
            options.title = QStringLiteral("Frontiers");
        } else {
            QList<AnytimeSeries> series;
            for (const PolicyVersion &pv : std::as_const(in.versions)) {
                ReplayOptions o = ReplayJobs::optionsFrom(settings);
                o.betas = {beta};
                const ReplayResult r = ReplayEngine::runWorlds({worlds.at(selected)}, ReplayJobs::specFor(pv, settings), o);
                if (!r.ok())
                    err << "warning: " << pv.name << ": " << r.firstError() << '\n';
                const QList<CurvePoint> curve = r.worlds.isEmpty() || r.worlds.first().episodes.isEmpty()
                                                    ? QList<CurvePoint>()
                                                    : r.worlds.first().episodes.first().curve;
                series.append({QStringLiteral("%1 (β=%2)").arg(pv.name).arg(beta), curve, -1});
            }
            PlotStyle::populateAnytime(&plot, series, in.worlds.at(selected).tree->cellCount(), false);
            table = PlotStyle::anytimeTable(series);
            data = FigureData::anytime(series);
            options.title = QStringLiteral("Anytime curves: %1").arg(in.worlds.at(selected).name);
        }
        written = FigureExport::write(outPath, options, FigureLayout::painterFor(&plot), &error);
    }
    if (!written) {
        err << "dreamrsi plot: " << error << '\n';
        return 1;
    }
    out << outPath << '\n';
    if (!table.isEmpty()) {
        const QString tablePath = FigureExport::captionTablePath(outPath);
        if (!FigureExport::writeText(tablePath, table.toLatex(), &error)) {
            err << "dreamrsi plot: " << error << '\n';
            return 1;
        }
        out << tablePath << '\n' << table.toText();
    }
    return writeData(dataPath, data, out, err) ? 0 : 1;
}

} // namespace dreamrsi
