#pragma once

#include "model/discoverytree.h"
#include "store/storetypes.h"

#include <QString>

#include <memory>

namespace dreamrsi {

/// One replay world of a project: a finished iteration, its tree and the
/// name results and evidence refer to it by (ProjectWorlds::nameOf).
struct ProjectWorld
{
    QString name;
    IterationId iteration = 0; ///< 0 for a world that is not a project iteration (a loose tree file)
    std::shared_ptr<const DiscoveryTree> tree;
};

} // namespace dreamrsi
