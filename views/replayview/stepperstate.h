#pragma once

#include "model/discoverytree.h"
#include "replay/episoderesult.h"
#include "tree/treerenderer.h"

#include <QStringList>

#include <memory>

namespace dreamrsi {

/// Where a replay stepper stands in one traced episode: the first
/// `position()` rounds of the trace are revealed. Rounds that revealed
/// nothing (the rejected batch of a policy error) are not steps.
class StepperState
{
public:
    StepperState() = default;
    StepperState(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const EpisodeResult> episode);

    bool isValid() const { return m_tree && m_episode; }
    const std::shared_ptr<const EpisodeResult> &episode() const { return m_episode; }
    int roundCount() const { return int(m_rounds.size()); }
    int position() const { return m_position; }
    bool atStart() const { return m_position == 0; }
    bool atEnd() const { return m_position >= roundCount(); }

    bool stepForward();
    bool stepBack();
    void seek(int position);

    /// Ids revealed so far, in reveal order.
    QStringList revealedIds() const;
    /// The batch of the last shown round (empty at the start).
    QStringList latestBatch() const;
    int calls() const;
    /// Best effective score so far over the tree's best (the anytime curve's value).
    double attainment() const;
    RevealOverlay overlay() const;

private:
    std::shared_ptr<const DiscoveryTree> m_tree;
    std::shared_ptr<const EpisodeResult> m_episode;
    QList<const RoundTrace *> m_rounds;
    QList<int> m_revealRound; ///< per cell index, -1 when the episode never reveals it
    int m_position = 0;
};

} // namespace dreamrsi
