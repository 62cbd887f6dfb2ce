#pragma once

#include <QVarLengthArray>

#include <vector>

namespace dreamrsi::BuiltinRules {

/// The built-in policies' rules on a plain view of a round's state, shared
/// by the Policy classes (which build the view from a PolicyState) and the
/// compact replay of built-in policies (which keeps it by cell index), so
/// both choose the same batches by construction.

/// A legal cell, in the state's order (by branch, then attempt).
struct LegalCell
{
    int branch = 0;  ///< branch id
    int attempt = 0;
    int key = -1;    ///< the branch's trajectory key (Portfolio), -1 when it has none yet
};

/// What the rules read of a revealed cell.
struct Outcome
{
    bool success = false;  ///< docs/policy-api.md#helpers isSuccess
    bool hard = false;     ///< docs/policy-api.md#helpers failedHard
    bool hasScore = false;
    double score = 0.0;
};

/// A batch: positions in the legal list, in the order to reveal them.
using Batch = QVarLengthArray<int, 32>;

/// parallel_refine (rule: parallelrefinepolicy.h). `opened`: branches with a revealed cell.
void parallelRefine(double beta, int maxParallelism, int opened, const LegalCell *legal, int legalCount, Batch *batch);

/// portfolio (rule: portfoliopolicy.cpp): its per-episode memory and its choice.
class Portfolio
{
public:
    /// What the rule keeps of one branch's revealed attempts.
    struct Trajectory
    {
        bool hasAnchor = false;
        double anchor = 0.0;
        int stall = 0;
        int failRun = 0;
        bool lastSuccess = false;
        bool lastHard = false;
    };

    /// Forgets everything (a new episode).
    void reset();
    /// Takes in the next revealed cell, of the branch with trajectory key
    /// `key` (small integers >= 0, one per branch, chosen by the caller).
    void fold(int key, const Outcome &outcome);
    /// Cells taken in so far.
    int folded() const { return m_folded; }
    /// The next batch.
    void select(double beta, int maxParallelism, int opened, const LegalCell *legal, int legalCount, Batch *batch) const;

private:
    /// The rule's thresholds (portfoliopolicy.cpp) for one β, W and T.
    struct Thresholds
    {
        double beta = -1.0;
        int W = 0, T = -1;
        int R = 0, w0 = 0, P = 0, F = 0, G = 0;
    };

    mutable Thresholds m_thresholds; ///< of the last select(): a cache, not state
    std::vector<Trajectory> m_trajectories; ///< by key
    int m_folded = 0;
    bool m_hasBest = false;
    double m_best = 0.0;
    int m_sinceBest = 0;
};

} // namespace dreamrsi::BuiltinRules
