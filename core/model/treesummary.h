#pragma once

#include "discoverytree.h"

#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace dreamrsi {

/// What `dreamrsi validate` says of a valid tree: its cells, branches, max
/// depth, best raw score, whether it is scorable and its fail-class counts
/// (by name, in QMap order).
struct TreeFacts
{
    int cells = 0;
    int branches = 0;
    int maxDepth = 0;
    std::optional<double> bestScore; ///< the highest raw score; none when no cell has one
    bool scorable = false;           ///< S > 0
    QList<std::pair<QString, int>> failClasses;
};

/// The facts of a valid tree.
TreeFacts treeFacts(const DiscoveryTree &tree);

/// One line describing a valid tree: cells, branches, max depth, best score and
/// fail-class counts, as printed by `dreamrsi validate`.
QString summarizeTree(const TreeFacts &facts);
QString summarizeTree(const DiscoveryTree &tree);

} // namespace dreamrsi
