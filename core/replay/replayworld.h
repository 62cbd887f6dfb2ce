#pragma once

#include "model/discoverytree.h"

#include <QString>

#include <memory>

namespace dreamrsi {

/// A frozen world: a validated tree and the name results report it under.
struct ReplayWorld
{
    QString name;
    std::shared_ptr<const DiscoveryTree> tree;
};

} // namespace dreamrsi
