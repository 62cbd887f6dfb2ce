#pragma once

#include "store/storetypes.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace dreamrsi {

class ProjectReader;

/// The batches of a live iteration, round by round, and the scripted policy
/// that replays them exactly (`dreamrsi export P --iteration N
/// --recorded-policy OUT.js`). Replay never reads a cell's payload, so the
/// batches live in the script itself.
namespace RecordedPolicy {

/// The iteration's batches in round order: those stored as `batch` events
/// (rounds picked by hand), else the batches the round runner recorded in
/// the artifact folder (`attempts/<iteration>/rounds/<k>.json`). A failure
/// when the iteration has neither.
Result<QList<QStringList>> batches(ProjectReader &reader, IterationId iteration);

/// A policy script (the JavaScript API of docs/policy-api.md) that returns batch k in
/// round k, keeping only the ids legal then and at most maxParallelism of
/// them, and an empty batch after the last; planGrid answers the
/// iteration's grid. `origin` says where the batches come from (a comment).
QString script(const IterationInfo &info, const QList<QStringList> &batches, const QString &origin);

} // namespace RecordedPolicy

} // namespace dreamrsi
