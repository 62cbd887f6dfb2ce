#pragma once

#include "dreamer.h"

#include <QJsonObject>

namespace dreamrsi {

/// `dreamrsi dream --json`: the replay settings, the worlds, every version
/// (index, id, name, origin, parent, developer, mean value or error, and its
/// per-world value, hypervolume, penalty) and the proposed version.
QJsonObject dreamReportJson(const DreamReport &report, const QList<DreamWorld> &worlds, const DreamSettings &settings);

} // namespace dreamrsi
