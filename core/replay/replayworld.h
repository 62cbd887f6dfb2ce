#pragma once

#include "model/discoverytree.h"

#include <QList>
#include <QString>

#include <memory>

namespace dreamrsi {

/// What people did to the live round a world was recorded from, as a
/// replay can apply it (`replay --project --apply-steering`,
/// docs/steering.md#replaying-a-steered-iteration): branches closed before a
/// round, and cells pinned first in a round's batch.
struct WorldSteering
{
    struct Step
    {
        int round = 0;      ///< the batch (0-based) it applied before
        bool close = false; ///< true: close `branch`; false: pin `cell`
        int branch = -1;
        QString cell;       ///< a pin's cell id
    };
    QList<Step> steps;      ///< in the order they were applied

    bool isEmpty() const { return steps.isEmpty(); }
};

/// A frozen world: a validated tree and the name results report it under.
struct ReplayWorld
{
    QString name;
    std::shared_ptr<const DiscoveryTree> tree;
    /// Interventions to apply when replaying it; null (the default): none,
    /// a replay ignores what people did.
    std::shared_ptr<const WorldSteering> steering = {};
};

} // namespace dreamrsi
