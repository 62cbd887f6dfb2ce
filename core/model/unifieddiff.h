#pragma once

#include <QString>

namespace dreamrsi {

/// Line-based unified diff (three lines of context) computed with dtl: the
/// inspector's Diff page, the policy diffs and `dreamrsi path`.
/// Returns an empty string when both texts are equal.
QString unifiedDiff(const QString &before, const QString &after, const QString &beforeLabel,
                    const QString &afterLabel);

} // namespace dreamrsi
