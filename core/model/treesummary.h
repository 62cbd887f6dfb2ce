#pragma once

#include "discoverytree.h"

#include <QString>

namespace dreamrsi {

/// One line describing a valid tree: cells, branches, max depth, best score and
/// fail-class counts, as printed by `dreamrsi validate`.
QString summarizeTree(const DiscoveryTree &tree);

} // namespace dreamrsi
