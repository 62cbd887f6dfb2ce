#include "plotrequest.h"

#include "figures/figuredata.h"
#include "figures/figureexport.h"
#include "figures/figurelayout.h"
#include "model/treejson.h"
#include "figures/plotstyle.h"
#include "figures/qcp.h"
#include "project/policyresolution.h"
#include "project/projectpolicies.h"
#include "project/versionreplay.h"
#include "project/projectprogress.h"
#include "project/projectreplay.h"
#include "project/projectsnapshot.h"
#include "progress/compareplot.h"
#include "progress/progressplot.h"
#include "project/projectsimulations.h"
#include "progress/simulationplot.h"
#include "store/projectreader.h"
#include "tree/treerenderer.h"
#include "session/worldselection.h"

#include <QFile>
#include <QFileInfo>

#include <algorithm>

namespace dreamrsi {

namespace {

/// A replay the plot runs itself: the one replay job, in this process (the
/// command line runs the code it is handed), under `config`.
ReplayResult replayHere(const PolicyVersion &version, QList<ReplayWorld> worlds, const ReplayConfig &config)
{
    VersionReplayJob job;
    job.version = version;
    job.worlds = std::move(worlds);
    job.config = config;
    const SandboxedReplayOutcome outcome = VersionReplay::run(job);
    return outcome.output ? outcome.output->result : ReplayResult();
}

/// A project's version valued as `replay --project --no-store` values it:
/// over the project's replay worlds, or their imagined completions under an
/// imagined valuation (completion seed 0, as outside a dream).
Result<ProjectReplayOutcome> valueUnstored(const QString &project, const PolicyVersion &version)
{
    ProjectReplayRequest request;
    request.project = project;
    request.versionId = version.id;
    request.noStore = true;
    return ProjectReplay::run(request);
}

/// What a figure kind draws: the figure (its painter and options, the title
/// set), the numbers its compact legend leaves out (the caption table) and
/// every plotted number (for --data).
struct Figure
{
    FigureExport::Options options;
    FigureExport::Painter paint;
    FigureTable table;
    FigureTable data;
};

/// Writes a figure, then its caption table (FIG.table.tex, printed as text
/// too) when it has rows, then the numbers behind it when --data asked for
/// them; each written path goes to `out`. 0, or 1 with the message on `err`.
int writeFigure(const Figure &figure, const QString &outPath, const QString &dataPath, QTextStream &out,
                QTextStream &err)
{
    if (const Result<Done> written = FigureExport::write(outPath, figure.options, figure.paint); !written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << outPath << '\n';
    if (!figure.table.isEmpty()) {
        const QString tablePath = FigureExport::captionTablePath(outPath);
        if (const Result<Done> written = FigureExport::writeText(tablePath, figure.table.toLatex()); !written) {
            err << "dreamrsi plot: " << written.error << '\n';
            return 1;
        }
        out << tablePath << '\n' << figure.table.toText();
    }
    if (dataPath.isEmpty())
        return 0;
    if (const Result<Done> written = FigureExport::writeText(dataPath, figure.data.toCsv()); !written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << dataPath << '\n';
    return 0;
}

// `plot progress`: one curve per project, in the order given.
int writeProgress(const QStringList &projects, const QStringList &labels, const QString &outPath,
                  FigureExport::Options options, const QString &dataPath, QTextStream &out, QTextStream &err)
{
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
    return writeFigure({options, FigureLayout::painterFor(&plot), ProgressPlot::table(curves), FigureData::progress(curves)},
                       outPath, dataPath, out, err);
}

// `plot progress --simulation`: a counterfactual loop's arms, mean curves
// with their intervals.
int writeSimulation(const QString &path, const QString &outPath, FigureExport::Options options, const QString &dataPath,
                    QTextStream &out, QTextStream &err)
{
    const Result<SimulationCurves> curves = ProjectSimulations::readCurves(path);
    if (!curves.ok()) {
        err << "dreamrsi plot: " << curves.error << '\n';
        return 1;
    }
    QCustomPlot plot;
    plot.resize(FigureExport::logicalSize(options.sizeMm).toSize());
    SimulationPlot::populate(&plot, *curves.value, false);
    options.title = QStringLiteral("Counterfactual loop");
    return writeFigure({options, FigureLayout::painterFor(&plot), SimulationPlot::table(*curves.value),
                        SimulationPlot::data(*curves.value)},
                       outPath, dataPath, out, err);
}

// `plot compare`: best-so-far against calls, cost or time for each source,
// seeds of one label as their mean and band (docs/compare.md).
int writeCompare(const PlotRequest &request, QTextStream &out, QTextStream &err)
{
    QList<CompareSource> sources;
    for (const CompareSourceSpec &spec : request.compareSources) {
        Result<CompareSource> read = CompareCurves::read(spec, request.scoreMetric);
        if (!read) {
            err << "dreamrsi plot: " << read.error << '\n';
            return 1;
        }
        for (const QString &note : std::as_const(read.value->notes))
            err << "note: " << read.value->name << ": " << note << '\n';
        sources.append(std::move(*read.value));
    }
    const CompareResult result = CompareCurves::compare(sources, request.compareAxis);
    // A population snapshot that cannot be drawn is refused, not left out:
    // its survivors are no history, and the run's db/ may hold one.
    if (const QList<CompareLeftOut> refused = result.refusedSnapshots(); !refused.isEmpty()) {
        for (const CompareLeftOut &left : refused) {
            err << "dreamrsi plot: " << CompareCurves::snapshotNote(left.name, *left.snapshot, true);
            if (!left.snapshot->history.isEmpty())
                err << "; give --run " << left.snapshot->history;
            err << '\n';
        }
        return 1;
    }
    for (const QString &note : result.notes)
        err << "note: " << note << '\n';
    err.flush();
    if (result.curves.isEmpty()) {
        err << "dreamrsi plot: no source recorded the " << CompareCurves::axisName(request.compareAxis)
            << " axis; nothing to draw\n";
        return 1;
    }
    QCustomPlot plot;
    FigureExport::Options options = request.options;
    plot.resize(FigureExport::logicalSize(options.sizeMm).toSize());
    ComparePlot::populate(&plot, result, false);
    options.title = QStringLiteral("Compare");
    return writeFigure({options, FigureLayout::painterFor(&plot), ComparePlot::table(result), ComparePlot::data(result)},
                       request.outPath, request.dataPath, out, err);
}

/// What the frontier, anytime and tree figures draw from: the worlds, the
/// versions and (for a project) the stored results.
struct Inputs
{
    QList<WorldEntry> worlds;
    QList<PolicyVersion> versions;
    QHash<PolicyVersionId, ReplayResultPtr> stored;
    QList<PolicyVersionId> stale; ///< stored values that do not cover the project's configuration
    /// Replays run under the project's replay configuration, or (tree files)
    /// the defaults, valued as revealed.
    ReplayConfig config = [] {
        ReplayConfig c;
        c.valuation = Valuation::Revealed;
        return c;
    }();
    QString configLabel; ///< the project's replay configuration; empty for tree files
    /// The re-evaluated cells of each iteration that has any (the anytime curves' error bars).
    QHash<IterationId, QList<ReevaluationStats>> reevaluations;
    int selected = 0;             ///< the world --select names, else the first
    QList<ReplayWorld> replayWorlds() const
    {
        QList<ReplayWorld> list;
        for (const WorldEntry &w : worlds)
            list.append({w.name, w.tree});
        return list;
    }
};

/// A project's worlds (finished iterations), names and stored values, as the
/// project layer decides them for the workbench.
Result<Inputs> projectInputs(const QString &project, const QStringList &versionNames)
{
    using R = Result<Inputs>;
    auto reader = ProjectReader::open(project);
    if (!reader.ok())
        return R::failure(reader.error);
    auto snapshot = ProjectSnapshot::load(**reader.value);
    if (!snapshot.ok())
        return R::failure(snapshot.error);
    Inputs in;
    for (const ProjectWorld &w : std::as_const(snapshot.value->worlds)) {
        in.worlds.append({w.name, QString(), w.iteration, w.tree});
        if (w.iteration <= 0)
            continue;
        const StoreResult<QList<ReevaluationRecord>> records = (*reader.value)->reevaluations(w.iteration);
        if (!records.ok())
            return R::failure(records.error);
        if (QList<ReevaluationStats> stats = reevaluationStats(w.iteration, w.tree->cells(), *records.value); !stats.isEmpty())
            in.reevaluations.insert(w.iteration, std::move(stats));
    }
    for (const PolicyVersion &pv : std::as_const(snapshot.value->versions)) {
        if (versionNames.isEmpty() || versionNames.contains(pv.name))
            in.versions.append(pv);
    }
    in.stored = snapshot.value->results;
    in.stale = snapshot.value->stale;
    // Values, and any replay the plot runs itself, are under the project's
    // one replay configuration; the figure says which.
    in.config = snapshot.value->config.config;
    in.configLabel = snapshot.value->config.config.label();
    for (const QString &n : versionNames) {
        bool found = false;
        for (const PolicyVersion &pv : std::as_const(in.versions))
            found = found || pv.name == n;
        if (!found)
            return R::failure(QStringLiteral("the project has no policy version '%1'").arg(n));
    }
    return R::success(std::move(in));
}

/// Tree files, and the versions named (built-ins, .js files) or every built-in.
Result<Inputs> treeFileInputs(const QStringList &worldPaths, const QStringList &versionNames)
{
    using R = Result<Inputs>;
    Inputs in;
    for (const QString &path : worldPaths) {
        auto parsed = TreeJson::readFile(path);
        if (!parsed.ok())
            return R::failure(parsed.error.message);
        in.worlds.append({QFileInfo(path).completeBaseName(), path, 0,
                          std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))});
    }
    if (versionNames.isEmpty())
        in.versions = ProjectPolicies::builtinVersions();
    for (const QString &n : versionNames) {
        // Named in the figure as given (PolicyResolution::versionOfArgument).
        const Result<PolicyVersion> version = PolicyResolution::versionOfArgument(n, {}, n);
        if (!version)
            return version.failureAs<Inputs>();
        in.versions.append(*version.value);
    }
    return R::success(std::move(in));
}

/// The inputs of a frontier, anytime or tree figure, the selected world chosen.
Result<Inputs> inputsOf(const PlotRequest &request)
{
    Result<Inputs> in = request.project.isEmpty() ? treeFileInputs(request.worldPaths, request.versionNames)
                                                  : projectInputs(request.project, request.versionNames);
    if (!in)
        return in;
    if (in.value->worlds.isEmpty())
        return Result<Inputs>::failure(QStringLiteral("no worlds to plot"));
    if (!request.select.isEmpty()) {
        const Result<int> chosen = selectWorld(in.value->worlds, request.select);
        if (!chosen)
            return chosen.failureAs<Inputs>();
        in.value->selected = *chosen.value;
    }
    return in;
}

// `plot tree`: the selected world's tree.
int writeTree(const PlotRequest &request, const Inputs &in, QTextStream &out, QTextStream &err)
{
    const WorldEntry &world = in.worlds.at(in.selected);
    Figure figure;
    figure.options = request.options;
    figure.options.title = world.name;
    figure.data = FigureData::tree(world.name, *world.tree);
    auto renderer = std::make_shared<TreeRenderer>();
    renderer->setTree(world.tree);
    figure.paint = [renderer](QPainter &p, const QRectF &area) { renderer->paintFigure(p, area); };
    return writeFigure(figure, request.outPath, request.dataPath, out, err);
}

// `plot frontier`: each version's stored value, else valued or replayed now.
int writeFrontier(const PlotRequest &request, const Inputs &in, QTextStream &out, QTextStream &err)
{
    const QList<ReplayWorld> worlds = in.replayWorlds();
    QList<FrontierSeries> series;
    for (const PolicyVersion &pv : std::as_const(in.versions)) {
        ReplayResultPtr r = in.stored.value(pv.id);
        if (!request.project.isEmpty() && (!r || in.stale.contains(pv.id))) {
            // Valued now by the project's own valuation (revealed,
            // or imagined over the completions `replay --project`
            // draws), as the figure's label says; nothing stored.
            err << "valuing " << pv.name << " under " << in.configLabel << "…\n";
            err.flush();
            Result<ProjectReplayOutcome> valued = valueUnstored(request.project, pv);
            if (!valued) {
                err << "dreamrsi plot: " << valued.error << '\n';
                return 1;
            }
            r = std::make_shared<ReplayResult>(std::move(valued.value->result));
        } else if (!r || r->worlds.size() != worlds.size()) {
            err << "replaying " << pv.name << " in " << worlds.size() << " world(s)…\n";
            err.flush();
            r = std::make_shared<ReplayResult>(replayHere(pv, worlds, in.config));
        }
        if (!r->ok())
            err << "warning: " << pv.name << ": " << r->firstError() << '\n';
        series.append({pv.name, r});
    }
    const QString world =
        (!request.select.isEmpty() || worlds.size() == 1) ? in.worlds.at(in.selected).name : QString();
    QCustomPlot plot;
    plot.resize(FigureExport::logicalSize(request.options.sizeMm).toSize());
    PlotStyle::populateFrontier(&plot, series, world, false,
                                request.fullAttainmentAxis ? PlotStyle::AttainmentAxis::Full : PlotStyle::AttainmentAxis::Fitted);
    Figure figure{request.options, FigureLayout::painterFor(&plot), PlotStyle::frontierTable(series, world),
                  FigureData::frontier(series)};
    figure.options.title =
        in.configLabel.isEmpty() ? QStringLiteral("Frontiers") : QStringLiteral("Frontiers (%1)").arg(in.configLabel);
    return writeFigure(figure, request.outPath, request.dataPath, out, err);
}

// `plot anytime`: each version's curve at one β in the selected world, with
// a project iteration's re-evaluated cells as error bars
// (docs/online.md#re-evaluating-the-best).
int writeAnytime(const PlotRequest &request, const Inputs &in, QTextStream &out, QTextStream &err)
{
    const double beta = request.beta;
    const WorldEntry &shown = in.worlds.at(in.selected);
    QList<AnytimeSeries> series;
    for (const PolicyVersion &pv : std::as_const(in.versions)) {
        ReplayConfig one = in.config;
        one.betas = {beta};
        const ReplayResult r = replayHere(pv, {ReplayWorld{shown.name, shown.tree}}, one);
        if (!r.ok())
            err << "warning: " << pv.name << ": " << r.firstError() << '\n';
        const bool none = r.worlds.isEmpty() || r.worlds.first().episodes.isEmpty();
        const QList<CurvePoint> curve = none ? QList<CurvePoint>() : r.worlds.first().episodes.first().curve;
        const QList<AnytimeInterval> intervals =
            none ? QList<AnytimeInterval>()
                 : PlotStyle::anytimeIntervals(r.worlds.first().episodes.first(), *shown.tree,
                                               in.reevaluations.value(shown.iteration));
        series.append({QStringLiteral("%1 (β=%2)").arg(pv.name).arg(beta), curve, -1, intervals});
    }
    QCustomPlot plot;
    plot.resize(FigureExport::logicalSize(request.options.sizeMm).toSize());
    PlotStyle::populateAnytime(&plot, series, shown.tree->cellCount(), false);
    Figure figure{request.options, FigureLayout::painterFor(&plot), PlotStyle::anytimeTable(series),
                  FigureData::anytime(series)};
    figure.options.title = QStringLiteral("Anytime curves: %1").arg(shown.name);
    return writeFigure(figure, request.outPath, request.dataPath, out, err);
}

} // namespace

int writePlot(const PlotRequest &request, QTextStream &out, QTextStream &err)
{
    const QString &kind = request.kind;
    if (kind == QLatin1String("progress") && !request.simulation.isEmpty())
        return writeSimulation(request.simulation, request.outPath, request.options, request.dataPath, out, err);
    if (kind == QLatin1String("compare"))
        return writeCompare(request, out, err);
    if (kind == QLatin1String("progress"))
        return writeProgress(request.projects, request.labels, request.outPath, request.options, request.dataPath, out, err);
    const Result<Inputs> in = inputsOf(request);
    if (!in) {
        err << "dreamrsi plot: " << in.error << '\n';
        return 1;
    }
    if (kind == QLatin1String("tree"))
        return writeTree(request, *in.value, out, err);
    if (in.value->versions.isEmpty()) {
        err << "dreamrsi plot: no policy versions to plot\n";
        return 1;
    }
    if (kind == QLatin1String("frontier"))
        return writeFrontier(request, *in.value, out, err);
    return writeAnytime(request, *in.value, out, err);
}

} // namespace dreamrsi
