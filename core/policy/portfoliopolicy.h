#pragma once

#include "policy.h"

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
};

} // namespace dreamrsi
