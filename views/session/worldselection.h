#pragma once

#include "models/workspace.h"

#include "base/result.h"

#include <QList>
#include <QString>

namespace dreamrsi {

/// Finds the world a user means by `select`: its name, or else its
/// iteration number (the tree's `iteration` field, or the project's
/// iteration id when no tree carries that number). The index into `worlds`,
/// or a failure saying what is wrong (no such world, or a number several
/// worlds share, with their names).
Result<int> selectWorld(const QList<WorldEntry> &worlds, const QString &select);

} // namespace dreamrsi
