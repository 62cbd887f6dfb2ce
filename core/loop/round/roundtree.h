#pragma once

#include "model/cell.h"
#include "policy/gridplan.h"
#include "policy/policystate.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// The live tree of one round's iteration as the policy sees it
/// (docs/online.md#a-live-round, docs/policy-api.md#state): the finished cells, the grid plan,
/// the legal cells derived from them, and the PolicyState built from both,
/// exactly as the replay engine builds it for a frozen world.
///
/// Legal now: `b<b>a0` for each branch 0..plan.branches-1 without a cell
/// (branch ids ascending), and `b<b>a<a+1>` for each opened branch whose
/// highest attempt `a` is below plan.refinements. `meta(id)` of a legal cell
/// has seq -1 (it is not created yet); its tags are the `direction:<name>`
/// tag its branch explores (setDirections(): the task's directions[b mod n],
/// the tag the cell will carry once it is created), none without directions.
///
/// Not thread-safe; the runner's driver thread owns it.
class RoundTree
{
public:
    RoundTree() = default;
    RoundTree(GridPlan plan, std::optional<double> baselineScore);

    const GridPlan &plan() const { return m_plan; }
    /// The task's directions, by name: branch b explores names[b mod n]
    /// (Task::directionFor). Empty: legal cells carry no tags.
    void setDirections(QStringList names) { m_directions = std::move(names); }
    /// The tags a legal cell of `branch` carries: {"direction:<name>"}, or none.
    QStringList legalTags(int branch) const;
    std::optional<double> baselineScore() const { return m_baselineScore; }

    /// Adds a finished cell. Returns false (and adds nothing) when its id or
    /// (branch, attempt) is already there or its parent is missing.
    bool add(const Cell &cell);
    /// Finished cells, in seq (finishing) order.
    const QList<Cell> &cells() const { return m_cells; }
    const Cell *cell(const QString &id) const;
    bool contains(const QString &id) const { return m_index.contains(id); }
    /// The finished parent of attempt (branch, attempt); nullptr for attempt 0.
    const Cell *parent(int branch, int attempt) const;
    /// Seq the next finished cell gets (one past the largest so far).
    qint64 nextSeq() const { return m_nextSeq; }
    /// Largest finite score, if any.
    std::optional<double> bestScore() const { return m_best; }
    /// Branches with a cell, ascending; deepest attempt count over them.
    QList<int> openedBranches() const;
    /// The highest finished attempt of `branch`, or -1 when it has none.
    int topAttempt(int branch) const { return m_top.value(branch, -1); }
    int depth() const;

    /// Cells legal now, sorted by (branch, attempt).
    QList<CellMeta> legal() const;
    /// Resets `state` and fills it for round `round` (observations in seq
    /// order, the legal cells).
    void fillState(PolicyState &state, double beta, int workers, int round) const;
    /// Why `batch` is illegal now (docs/replay.md#illegal-batches-and-policy-errors order: an id not legal, a
    /// repeated id, more than `workers` ids), or empty when it is legal.
    QString checkBatch(const QStringList &batch, int workers) const;
    /// checkBatch() against a given legal list (a steered round's policy
    /// gets fewer legal cells and fewer workers).
    static QString checkBatchAgainst(const QStringList &batch, const QList<CellMeta> &legal, int workers);
    /// The observation a policy gets for a finished cell.
    Observation observationOf(const Cell &cell) const;

    /// "b<branch>a<attempt>".
    static QString idOf(int branch, int attempt);
    /// Parses "b<branch>a<attempt>"; false for any other form.
    static bool parseId(const QString &id, int *branch, int *attempt);

private:
    GridPlan m_plan;
    std::optional<double> m_baselineScore;
    QStringList m_directions;
    QList<Cell> m_cells;
    QHash<QString, int> m_index;          ///< id -> index in m_cells
    QHash<int, int> m_top;                ///< branch -> highest attempt
    qint64 m_nextSeq = 0;
    std::optional<double> m_best;
};

} // namespace dreamrsi
