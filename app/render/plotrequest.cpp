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

/// Writes the numbers behind a figure when --data asked for them.
bool writeData(const QString &dataPath, const FigureTable &data, QTextStream &out, QTextStream &err)
{
    if (dataPath.isEmpty())
        return true;
    if (const Result<Done> written = FigureExport::writeText(dataPath, data.toCsv()); !written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return false;
    }
    out << dataPath << '\n';
    return true;
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
    Result<Done> written = FigureExport::write(outPath, options, FigureLayout::painterFor(&plot));
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << outPath << '\n';
    const FigureTable table = ProgressPlot::table(curves);
    const QString tablePath = FigureExport::captionTablePath(outPath);
    written = FigureExport::writeText(tablePath, table.toLatex());
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << tablePath << '\n' << table.toText();
    return writeData(dataPath, FigureData::progress(curves), out, err) ? 0 : 1;
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
    Result<Done> written = FigureExport::write(outPath, options, FigureLayout::painterFor(&plot));
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << outPath << '\n';
    const FigureTable table = SimulationPlot::table(*curves.value);
    const QString tablePath = FigureExport::captionTablePath(outPath);
    written = FigureExport::writeText(tablePath, table.toLatex());
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << tablePath << '\n' << table.toText();
    return writeData(dataPath, SimulationPlot::data(*curves.value), out, err) ? 0 : 1;
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
    Result<Done> written = FigureExport::write(request.outPath, options, FigureLayout::painterFor(&plot));
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << request.outPath << '\n';
    const FigureTable table = ComparePlot::table(result);
    const QString tablePath = FigureExport::captionTablePath(request.outPath);
    written = FigureExport::writeText(tablePath, table.toLatex());
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << tablePath << '\n' << table.toText();
    return writeData(request.dataPath, ComparePlot::data(result), out, err) ? 0 : 1;
}

struct Inputs
{
    QList<WorldEntry> worlds;
    QList<PolicyVersion> versions;
    QHash<PolicyVersionId, ReplayResultPtr> stored;
    QList<PolicyVersionId> stale; ///< stored values that do not cover the project's configuration
    QString configLabel; ///< the project's replay configuration; empty for tree files
    /// The re-evaluated cells of each iteration that has any (the anytime curves' error bars).
    QHash<IterationId, QList<ReevaluationStats>> reevaluations;
};
} // namespace

int writePlot(const PlotRequest &request, QTextStream &out, QTextStream &err)
{
    const QString &kind = request.kind;
    const QString &project = request.project;
    const QString &outPath = request.outPath;
    const QString &select = request.select;
    const QString &dataPath = request.dataPath;
    const QStringList &versionNames = request.versionNames;
    const double beta = request.beta;
    FigureExport::Options options = request.options;
    // Replays under the project's replay configuration, or (tree files)
    // the defaults, valued as revealed.
    ReplayConfig config;
    config.valuation = Valuation::Revealed;
    if (kind == QLatin1String("progress") && !request.simulation.isEmpty())
        return writeSimulation(request.simulation, outPath, options, dataPath, out, err);
    if (kind == QLatin1String("compare"))
        return writeCompare(request, out, err);
    if (kind == QLatin1String("progress"))
        return writeProgress(request.projects, request.labels, outPath, options, dataPath, out, err);

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
        for (const ProjectWorld &w : std::as_const(snapshot.value->worlds)) {
            in.worlds.append({w.name, QString(), w.iteration, w.tree});
            if (w.iteration <= 0)
                continue;
            const StoreResult<QList<ReevaluationRecord>> records = (*reader.value)->reevaluations(w.iteration);
            if (!records.ok()) {
                err << "dreamrsi plot: " << records.error << '\n';
                return 1;
            }
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
        config = snapshot.value->config.config;
        in.configLabel = snapshot.value->config.config.label();
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
        for (const QString &path : request.worldPaths) {
            auto parsed = TreeJson::readFile(path);
            if (!parsed.ok()) {
                err << "dreamrsi plot: " << parsed.error.message << '\n';
                return 1;
            }
            in.worlds.append({QFileInfo(path).completeBaseName(), path, 0,
                              std::make_shared<const DiscoveryTree>(std::move(*parsed.tree))});
        }
        if (versionNames.isEmpty()) {
            in.versions = ProjectPolicies::builtinVersions();
        } else {
            for (const QString &n : versionNames) {
                // Named in the figure as given (PolicyResolution::versionOfArgument).
                const Result<PolicyVersion> version = PolicyResolution::versionOfArgument(n, {}, n);
                if (!version) {
                    err << "dreamrsi plot: " << version.error << '\n';
                    return 1;
                }
                in.versions.append(*version.value);
            }
        }
    }
    if (in.worlds.isEmpty()) {
        err << "dreamrsi plot: no worlds to plot\n";
        return 1;
    }
    int selected = 0;
    if (!select.isEmpty()) {
        const Result<int> chosen = selectWorld(in.worlds, select);
        if (!chosen) {
            err << "dreamrsi plot: " << chosen.error << '\n';
            return 1;
        }
        selected = *chosen.value;
    }
    QList<ReplayWorld> worlds;
    for (const WorldEntry &w : std::as_const(in.worlds))
        worlds.append({w.name, w.tree});

    Result<Done> written = Result<Done>::failure(QStringLiteral("nothing was drawn"));
    FigureTable table; // the numbers the figure's compact legend leaves out
    FigureTable data;  // every plotted number, for --data
    if (kind == QLatin1String("tree")) {
        data = FigureData::tree(in.worlds.at(selected).name, *in.worlds.at(selected).tree);
        TreeRenderer renderer;
        renderer.setTree(in.worlds.at(selected).tree);
        options.title = in.worlds.at(selected).name;
        written = FigureExport::write(outPath, options,
                                      [&renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); });
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
                if (!project.isEmpty() && (!r || in.stale.contains(pv.id))) {
                    // Valued now by the project's own valuation (revealed,
                    // or imagined over the completions `replay --project`
                    // draws), as the figure's label says; nothing stored.
                    err << "valuing " << pv.name << " under " << in.configLabel << "…\n";
                    err.flush();
                    Result<ProjectReplayOutcome> valued = valueUnstored(project, pv);
                    if (!valued) {
                        err << "dreamrsi plot: " << valued.error << '\n';
                        return 1;
                    }
                    r = std::make_shared<ReplayResult>(std::move(valued.value->result));
                } else if (!r || r->worlds.size() != worlds.size()) {
                    err << "replaying " << pv.name << " in " << worlds.size() << " world(s)…\n";
                    err.flush();
                    r = std::make_shared<ReplayResult>(replayHere(pv, worlds, config));
                }
                if (!r->ok())
                    err << "warning: " << pv.name << ": " << r->firstError() << '\n';
                series.append({pv.name, r});
            }
            const QString world = (!select.isEmpty() || worlds.size() == 1) ? in.worlds.at(selected).name : QString();
            PlotStyle::populateFrontier(&plot, series, world, false,
                                        request.fullAttainmentAxis ? PlotStyle::AttainmentAxis::Full : PlotStyle::AttainmentAxis::Fitted);
            table = PlotStyle::frontierTable(series, world);
            data = FigureData::frontier(series);
            options.title = in.configLabel.isEmpty() ? QStringLiteral("Frontiers")
                                                     : QStringLiteral("Frontiers (%1)").arg(in.configLabel);
        } else {
            QList<AnytimeSeries> series;
            for (const PolicyVersion &pv : std::as_const(in.versions)) {
                ReplayConfig one = config;
                one.betas = {beta};
                const ReplayResult r = replayHere(pv, {worlds.at(selected)}, one);
                if (!r.ok())
                    err << "warning: " << pv.name << ": " << r.firstError() << '\n';
                const bool none = r.worlds.isEmpty() || r.worlds.first().episodes.isEmpty();
                const QList<CurvePoint> curve = none ? QList<CurvePoint>() : r.worlds.first().episodes.first().curve;
                // A project iteration's re-evaluated cells as error bars (docs/online.md#re-evaluating-the-best).
                const WorldEntry &shown = in.worlds.at(selected);
                const QList<AnytimeInterval> intervals =
                    none ? QList<AnytimeInterval>()
                         : PlotStyle::anytimeIntervals(r.worlds.first().episodes.first(), *shown.tree,
                                                       in.reevaluations.value(shown.iteration));
                series.append({QStringLiteral("%1 (β=%2)").arg(pv.name).arg(beta), curve, -1, intervals});
            }
            PlotStyle::populateAnytime(&plot, series, in.worlds.at(selected).tree->cellCount(), false);
            table = PlotStyle::anytimeTable(series);
            data = FigureData::anytime(series);
            options.title = QStringLiteral("Anytime curves: %1").arg(in.worlds.at(selected).name);
        }
        written = FigureExport::write(outPath, options, FigureLayout::painterFor(&plot));
    }
    if (!written) {
        err << "dreamrsi plot: " << written.error << '\n';
        return 1;
    }
    out << outPath << '\n';
    if (!table.isEmpty()) {
        const QString tablePath = FigureExport::captionTablePath(outPath);
        if (const Result<Done> tableWritten = FigureExport::writeText(tablePath, table.toLatex()); !tableWritten) {
            err << "dreamrsi plot: " << tableWritten.error << '\n';
            return 1;
        }
        out << tablePath << '\n' << table.toText();
    }
    return writeData(dataPath, data, out, err) ? 0 : 1;
}

} // namespace dreamrsi
