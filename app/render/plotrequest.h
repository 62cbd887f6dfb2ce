#pragma once

#include "figures/figureexport.h"
#include "project/comparecurves.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// One figure to write headless (`dreamrsi plot`, parsed in app/cli): the
/// workbench's frontier, anytime, tree, progress or compare figure, from a
/// project, from tree files or (compare) from runs.
struct PlotRequest
{
    QString kind;             ///< frontier, anytime, tree, progress or compare
    QString project;          ///< the project of frontier, anytime and tree figures
    QStringList worldPaths;   ///< or tree files (frontier, anytime, tree)
    QStringList projects;     ///< progress: one project per curve, in order
    QStringList labels;       ///< progress: the curve names, parallel to `projects` (empty: the project's name)
    QString simulation;       ///< progress: a counterfactual loop's JSON (`loop --worlds --json`) instead of projects
    QStringList versionNames; ///< project version names, or builtin:NAME / a .js file with tree files; all when empty
    QString select;           ///< one world by name or iteration number; empty: all (frontier) or the first
    double beta = 0.5;        ///< the β of anytime curves
    QList<CompareSourceSpec> compareSources; ///< compare: projects, runs and tree files in order, each with its label
    CompareAxis compareAxis = CompareAxis::Calls; ///< compare: --x
    QString scoreMetric;      ///< compare: --score, the metric that scores cells (empty: their score)
    bool fullAttainmentAxis = false; ///< frontier: attainment axis 0–1 instead of fitted to the points
    FigureExport::Options options;
    QString outPath;          ///< .pdf, .svg or .png
    QString dataPath;         ///< --data: the CSV of the numbers behind the figure, empty when not asked
};

/// Writes the figure of a checked request (kind known, one source, a
/// supported output format; progress and compare with at least one source), then its
/// caption table (FIG.table.tex) and data file when there are any; each
/// written path goes to `out`, with the table as text. Frontiers use stored
/// results when the project has them and replay otherwise ("replaying …"
/// on `err`). Returns 0 when everything was written, 1 on a failure (the
/// message on `err`).
int writePlot(const PlotRequest &request, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
