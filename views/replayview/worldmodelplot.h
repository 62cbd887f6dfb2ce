#pragma once

#include "figures/figuretable.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

class QCustomPlot;

namespace dreamrsi {

/// Draws the world model of imagined valuation (WorldModel::toJson,
/// docs/online.md#valuation) as a figure: one panel at a time, so each
/// exports at journal sizes through FigureLayout like every other figure.
namespace WorldModelPlot {

enum class Panel {
    FirstScores, ///< per stratum its first-attempt scores (every value, the mean) and the count; the cap
    Gains,       ///< per stratum the mean gain over the branch's best by depth (min–max bars), counts on the points
    Failures,    ///< the pooled failure rate by depth with its trials; the rate deeper than any recorded depth
};

/// The panel's title in the user's language.
QString title(Panel panel);
/// "direction:heavy" → "heavy", "*" → "pooled".
QString stratumLabel(const QString &stratum);
/// The strata of `model` in its order ("*" first).
QStringList strata(const QJsonObject &model);
/// Replaces the plot's contents with `panel` of `model`. Returns the number
/// of values drawn (0: the model has none for that panel).
int populate(QCustomPlot *plot, const QJsonObject &model, Panel panel, bool dark);

} // namespace WorldModelPlot
} // namespace dreamrsi
