#pragma once

#include "policy.h"

#include <QHash>

namespace dreamrsi {

/// A hand-designed portfolio policy in the spirit of the paper's Appendix
/// D.2 (twin: resources/policies/portfolio.js). The full rule is written at
/// the top of portfoliopolicy.cpp and of the twin.
class PortfolioPolicy final : public Policy
{
public:
    QString name() const override;
    std::optional<double> defaultBeta() const override { return 0.5; }
    void beginEpisode(double beta, int maxParallelism) override;
    PolicyDecision selectBatch(const PolicyState &state) override;

    /// What the policy keeps of one branch's revealed attempts (see the .cpp).
    struct Trajectory
    {
        bool hasAnchor = false;
        double anchor = 0.0;
        int stall = 0;
        int failRun = 0;
        bool lastSuccess = false;
        bool lastHard = false;
    };

private:
    /// Folds observations [m_folded, end) into the trajectories and the
    /// portfolio best. Observations are only ever appended within an episode,
    /// so each is folded once; a shorter list means a new episode.
    void fold(const QList<Observation> &observed);

    QHash<int, Trajectory> m_trajectories;
    qsizetype m_folded = 0;
    QString m_lastFoldedId;
    bool m_hasBest = false;
    double m_best = 0.0;
    int m_sinceBest = 0;
};

} // namespace dreamrsi
