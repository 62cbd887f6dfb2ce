#pragma once

#include "figuretable.h"
#include "plotstyle.h"

#include "model/discoverytree.h"
#include "project/projectprogress.h"

#include <QJsonObject>

#include <memory>

namespace dreamrsi {

/// The numbers behind each figure kind, one row per plotted point, so a
/// researcher can re-plot them with other tools (`dreamrsi plot --data
/// FILE.csv`). Column names say what each column holds; numbers are written
/// in the shortest form that reads back to the same double; an absent value
/// is an empty field.
namespace FigureData {

/// Frontier: one row per (version, world, β) episode: its calls, rounds,
/// best score, attainment, whether the point lies on the non-dominated
/// staircase, and the world's hypervolume, penalty and value.
FigureTable frontier(const QList<FrontierSeries> &series);

/// Anytime: one row per reveal of each curve: (calls, best-so-far attainment).
FigureTable anytime(const QList<AnytimeSeries> &series);

/// Tree: one row per cell: id, branch, attempt, seq, score, fail class;
/// for an imagined completion also whether the cell was imagined (1) or revealed (0).
FigureTable tree(const QString &world, const DiscoveryTree &tree);

/// World model (WorldModel::toJson): per stratum a row of its first-attempt
/// scores and a row per depth of its gains over the branch's best (count,
/// mean, min, max), a row per depth of the pooled failure rate (trials,
/// rate, failures), and the cap.
FigureTable worldModel(const QJsonObject &model);

/// Progress: the step points of each run's best-so-far curve, then one row
/// per iteration mark (where it starts, how many calls, best after it).
FigureTable progress(const QList<ProgressCurve> &curves);

} // namespace FigureData

} // namespace dreamrsi
