#pragma once

#include "projectworld.h"

#include "base/result.h"

#include <QList>

namespace dreamrsi {

class ProjectReader;

/// The one place that decides which iterations of a project are replay
/// worlds and what they are called.
///
/// - A replay world is a *finished* iteration. A round that is still running,
///   or was interrupted, is not a frozen world yet: its tree may still grow,
///   so replays, values and approvals never include it.
/// - Its name is the base name of the file it was imported from, else
///   "iteration N" with the tree's iteration number (the row id when the
///   tree has none). Names are data (results and approval evidence refer to
///   worlds by them), so they are never translated. When two worlds would
///   share a name, the later ones get " (2)", " (3)", … in iteration order.
namespace ProjectWorlds {

bool isReplayWorld(const IterationInfo &info);
/// An approximate world (an imported run with forks or orphans,
/// docs/tree-format.md#imported-runs): still a replay world, but replays and
/// dreams use it only when asked, and label what they give over it.
bool isApproximate(const IterationInfo &info);
/// The name of one iteration before duplicates are told apart.
QString baseNameOf(const IterationInfo &info);
/// The replay worlds among `iterations` (kept in their order) and their unique names.
QList<IterationInfo> replayWorldsOf(const QList<IterationInfo> &iterations);
QStringList namesOf(const QList<IterationInfo> &replayWorlds);

/// Loads every replay world of a project, in iteration order. `skipped`
/// (when given) receives how many iterations were left out as not finished.
Result<QList<ProjectWorld>> load(ProjectReader &reader, int *skipped = nullptr);

} // namespace ProjectWorlds
} // namespace dreamrsi
