// portfolio: a hand-designed starting policy (Dream-RSI Appendix D.2 in
// spirit). The JavaScript twin resources/policies/portfolio.js follows the
// same rule step by step and gives identical batches.
//
// Thresholds, all routed through β (W = maxParallelism, T = opened branches
// + legal roots, i.e. every branch the policy may ever open):
//   R  = 1 + floor(β·(T − 1) + 0.5)   root budget: branches opened in total
//   w0 = min(R, 1 + floor(β·(W − 1) + 0.5))   roots opened in the first round
//   P  = 1 + floor(3β)   non-improving successes in a row before a branch closes
//   F  = 1 + floor(2β)   failures in a row a branch may try to repair
//   G  = W·(1 + floor(2β))   reveals without a new portfolio best before stopping
//
// Per-branch trajectory (revealed attempts in order): the anchor (best score
// of a successful evaluation with a numeric score), the stall count (trailing
// successes that did not beat the anchor before them; a success without a
// score counts as not improving), the failure run (trailing unsuccessful
// attempts) and whether the last attempt failed hard (fail class "env").
//
// Each round, with the frontier of every opened branch classified as
//   exploitation: last attempt succeeded and stall < P;
//   recovery:     last attempt failed, not hard, failure run ≤ F;
//   closed:       otherwise,
// the batch is built as:
//   0. portfolio stop: if something was revealed and the last G reveals did
//      not raise the best successful score, return [] (also when the batch
//      below comes out empty);
//   1. first round: the first w0 legal roots (ascending branch);
//   2. exploration: one legal root (lowest branch id) if fewer than R
//      branches are opened;
//   3. exploitation, best anchor first (ties: lower branch id), into the
//      remaining slots; the best recovery candidate (anchored before
//      unanchored, higher anchor, shorter failure run, lower branch id) is
//      added only when every exploitation candidate fits and a slot is left;
//   4. remaining slots: more legal roots while the root budget allows.
#include "portfoliopolicy.h"

#include <QVarLengthArray>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace BuiltinRules {

namespace {

struct Candidate
{
    int place = 0; ///< in the legal list
    int branch = 0;
    bool hasAnchor = false;
    double anchor = 0.0;
    int failRun = 0;
};

/// The candidates' order (a lambda's type, so that std::sort inlines it:
/// through a function pointer, every comparison was a call).
constexpr auto before = [](const Candidate &a, const Candidate &b) {
    if (a.hasAnchor != b.hasAnchor)
        return a.hasAnchor;
    if (a.hasAnchor && a.anchor != b.anchor)
        return a.anchor > b.anchor;
    if (a.failRun != b.failRun)
        return a.failRun < b.failRun;
    return a.branch < b.branch;
};

} // namespace

void Portfolio::reset()
{
    m_trajectories.clear();
    m_folded = 0;
    m_hasBest = false;
    m_best = 0.0;
    m_sinceBest = 0;
}

void Portfolio::fold(int key, const Outcome &o)
{
    if (size_t(key) >= m_trajectories.size())
        m_trajectories.resize(size_t(key) + 1);
    Trajectory &t = m_trajectories[size_t(key)];
    ++m_folded;
    ++m_sinceBest;
    if (o.success) {
        if (o.hasScore && (!t.hasAnchor || o.score > t.anchor)) {
            t.hasAnchor = true;
            t.anchor = o.score;
            t.stall = 0;
        } else {
            t.stall += 1;
        }
        t.failRun = 0;
        t.lastSuccess = true;
        t.lastHard = false;
        if (o.hasScore && (!m_hasBest || o.score > m_best)) {
            m_hasBest = true;
            m_best = o.score;
            m_sinceBest = 0;
        }
    } else {
        t.failRun += 1;
        t.lastSuccess = false;
        t.lastHard = o.hard;
    }
}

void Portfolio::select(double beta, int W, int opened, const LegalCell *legal, int legalCount, Batch *batch) const
{
    // The legal roots, ascending by branch (places in the legal list).
    QVarLengthArray<int, 32> roots;
    for (int i = 0; i < legalCount; ++i) {
        if (legal[i].attempt == 0)
            roots.append(i);
    }
    // T is the same all episode long when every root stays legal until it
    // is opened, so the thresholds are worked out once an episode (and again
    // whenever β, W or T differ from the last call's).
    const int T = opened + int(roots.size());
    Thresholds &th = m_thresholds;
    if (th.beta != beta || th.W != W || th.T != T) {
        th.beta = beta;
        th.W = W;
        th.T = T;
        th.R = 1 + int(std::floor(beta * double(T - 1) + 0.5));
        th.w0 = std::min(th.R, 1 + int(std::floor(beta * double(W - 1) + 0.5)));
        th.P = 1 + int(std::floor(3.0 * beta));
        th.F = 1 + int(std::floor(2.0 * beta));
        th.G = W * (1 + int(std::floor(2.0 * beta)));
    }
    const int R = th.R, w0 = th.w0, P = th.P, F = th.F, G = th.G;
    if (m_folded == 0) {
        for (int i = 0; i < roots.size() && i < w0 && i < W; ++i)
            batch->append(roots.at(i));
        return;
    }
    if (m_sinceBest >= G)
        return;
    // Classify the frontiers.
    QVarLengthArray<Candidate, 32> exploit;
    QVarLengthArray<Candidate, 32> recovery;
    for (int i = 0; i < legalCount; ++i) {
        const LegalCell &m = legal[i];
        if (m.attempt == 0)
            continue;
        static const Trajectory none;
        const Trajectory &t = m.key >= 0 && size_t(m.key) < m_trajectories.size() ? m_trajectories[size_t(m.key)] : none;
        const Candidate c{i, m.branch, t.hasAnchor, t.anchor, t.failRun};
        if (t.lastSuccess) {
            if (t.stall < P)
                exploit.append(c);
        } else if (!t.lastHard && t.failRun <= F) {
            recovery.append(c);
        }
    }
    std::sort(exploit.begin(), exploit.end(), before);
    // Of the recovery candidates only the first is ever taken.
    const Candidate *firstRecovery = recovery.isEmpty() ? nullptr : &*std::min_element(recovery.cbegin(), recovery.cend(), before);
    int rootsLeft = R - opened;
    int nextRoot = 0;
    if (rootsLeft > 0 && nextRoot < roots.size() && batch->size() < W) {
        batch->append(roots.at(nextRoot++));
        --rootsLeft;
    }
    const int space = W - int(batch->size());
    if (firstRecovery && exploit.size() < space) {
        for (const Candidate &c : exploit)
            batch->append(c.place);
        batch->append(firstRecovery->place);
    } else {
        for (int i = 0; i < exploit.size() && i < space; ++i)
            batch->append(exploit.at(i).place);
    }
    while (batch->size() < W && rootsLeft > 0 && nextRoot < roots.size()) {
        batch->append(roots.at(nextRoot++));
        --rootsLeft;
    }
}

} // namespace BuiltinRules

QString PortfolioPolicy::name() const
{
    return QStringLiteral("builtin:portfolio");
}

void PortfolioPolicy::beginEpisode(double, int)
{
    m_rule.reset();
    m_keys.clear();
    m_lastFoldedId.clear();
}

void PortfolioPolicy::fold(const QList<Observation> &observed)
{
    // A list that no longer starts with what was folded (a caller that
    // rebuilt its state differently) is folded again from the start.
    const int folded = m_rule.folded();
    if (observed.size() < folded || (folded > 0 && observed.at(folded - 1).meta.id != m_lastFoldedId))
        beginEpisode(0.0, 0);
    for (qsizetype i = m_rule.folded(); i < observed.size(); ++i) {
        const Observation &o = observed.at(i);
        auto key = m_keys.constFind(o.meta.branch);
        if (key == m_keys.cend())
            key = m_keys.insert(o.meta.branch, int(m_keys.size()));
        const BuiltinRules::Outcome outcome{o.isSuccess(), o.failedHard(), o.score.has_value(), o.score.value_or(0.0)};
        m_rule.fold(*key, outcome);
    }
    if (!observed.isEmpty())
        m_lastFoldedId = observed.constLast().meta.id;
}

PolicyDecision PortfolioPolicy::selectBatch(const PolicyState &state)
{
    fold(state.observed());
    const QList<CellMeta> &legal = state.legal();
    QVarLengthArray<BuiltinRules::LegalCell, 32> cells;
    for (const CellMeta &m : legal)
        cells.append(BuiltinRules::LegalCell{m.branch, m.attempt, m_keys.value(m.branch, -1)});
    BuiltinRules::Batch places;
    m_rule.select(state.beta(), state.maxParallelism(), int(state.openedBranches().size()), cells.constData(),
                  int(cells.size()), &places);
    PolicyDecision decision;
    decision.batch.reserve(places.size());
    for (const int place : places)
        decision.batch.append(legal.at(place).id);
    return decision;
}

} // namespace dreamrsi
