#pragma once

#include "builtinrules.h"
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

private:
    /// Folds observations [folded, end) into the rule. Observations are only
    /// ever appended within an episode, so each is folded once; a shorter
    /// list means a new episode.
    void fold(const QList<Observation> &observed);

    BuiltinRules::Portfolio m_rule;
    QHash<int, int> m_keys; ///< branch id -> trajectory key, in the order branches were first seen
    QString m_lastFoldedId;
};

} // namespace dreamrsi
