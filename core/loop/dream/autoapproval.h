#pragma once

#include "dreamer.h"

#include <QJsonObject>

namespace dreamrsi {

class ProjectStore;

/// The comparison stored as an approval's evidence: version `index` of the
/// dream against version 0 (the deployed one), world by world (value,
/// hypervolume, penalty), with the mean values, their difference and the
/// replay configuration the dream ran under (DreamReport::config). Shaped
/// like the approval dialog's evidence.
QJsonObject dreamApprovalEvidence(const DreamReport &report, int index, const QList<DreamWorld> &worlds);

/// `--auto-approve`: records that version `index` of the dream was approved
/// automatically (who and note say so; the evidence holds the comparison,
/// with "automatic": true). Blocking. This is the only approval the loop
/// writes itself; a shared approval layer may replace it.
StoreResult<qint64> approveAutomatically(ProjectStore &store, const DreamReport &report, int index,
                                         const QList<DreamWorld> &worlds, const QString &who);

} // namespace dreamrsi
