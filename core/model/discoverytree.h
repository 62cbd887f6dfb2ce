#pragma once

#include "cell.h"

#include <QHash>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// The recorded width and depth of an online round (`grid` in the tree file).
struct GridShape
{
    int branches = 0;
    int refinements = 0;
    friend bool operator==(const GridShape &, const GridShape &) = default;
};

/// Top-level fields of a tree file other than its cells.
struct TreeMeta
{
    std::optional<QString> task;
    std::optional<qint64> iteration;
    std::optional<double> baselineScore;
    std::optional<int> maxParallelism;
    std::optional<GridShape> grid;
    /// A world whose genealogy the chains only approximate (an imported run
    /// with forks or orphans, docs/tree-format.md#imported-runs): replay
    /// uses it only when asked, and labels what it gives.
    bool approximate = false;
    QJsonObject payload; ///< unknown top-level keys, kept verbatim
    friend bool operator==(const TreeMeta &, const TreeMeta &) = default;
};

/// A validation failure: what is wrong and where.
struct TreeError
{
    QString message;  ///< complete human-readable message
    int cellIndex = -1; ///< index in the file's `cells` array, -1 when not about one cell
    QString cellId;   ///< id of that cell when known
    QString field;    ///< offending field, empty when not about one field
};

/// A validated discovery tree ("world", docs/tree-format.md). Immutable once built:
/// the only way to get one is `build()` (or TreeJson::parse), which checks every
/// structural rule, so code that holds a DiscoveryTree may rely on them.
///
/// Cells are kept sorted by `seq` (creation order). Branches are indexed by id
/// in ascending order; each branch lists its cells by attempt 0..L-1.
class DiscoveryTree
{
public:
    struct Branch
    {
        int id = 0;
        QList<int> cells; ///< indices into cells(), by attempt
    };

    DiscoveryTree() = default;

    /// Validates ids, (branch, attempt) pairs, seqs and contiguity of attempts.
    /// Cell-level field types must already be checked (TreeJson does that).
    /// On failure returns std::nullopt and fills *error when given.
    static std::optional<DiscoveryTree> build(TreeMeta meta, QList<Cell> cells, TreeError *error = nullptr);

    const TreeMeta &meta() const { return m_meta; }
    const QList<Cell> &cells() const { return m_cells; }
    const QList<Branch> &branches() const { return m_branches; }

    /// B = |cells|.
    int cellCount() const { return int(m_cells.size()); }
    /// S = max over cells of the effective score (0 for an empty tree).
    double bestEffectiveScore() const { return m_bestEffective; }
    /// A tree with S = 0 cannot be scored (docs/tree-format.md#effective-score-best-score-scorability).
    bool isScorable() const { return m_bestEffective > 0.0; }
    /// Index into cells() of the cell with the largest effective score (first by seq on ties), -1 if none.
    int bestCellIndex() const { return m_bestIndex; }
    /// Largest finite raw score, if any cell has one.
    std::optional<double> bestScore() const;
    /// Longest branch length L_b.
    int maxDepth() const;

    int indexOfId(const QString &id) const { return m_byId.value(id, -1); }
    /// Index into branches() of branch `branchId`, -1 if absent.
    int branchIndex(int branchId) const { return m_branchIndex.value(branchId, -1); }
    /// Index into cells() of (branch, attempt), -1 if absent.
    int indexOf(int branchId, int attempt) const;
    /// Index of the parent attempt (attempt - 1 of the same branch), -1 for attempt 0.
    int parentIndex(int cellIndex) const { return m_parentOf.at(cellIndex); }
    /// Index into branches() of the branch of cell `cellIndex`.
    int branchIndexOfCell(int cellIndex) const { return m_branchOf.at(cellIndex); }

    /// Counts per fail class over all cells.
    QMap<QString, int> failClassCounts() const;

private:
    /// Fills the branches' cell slots and the best cell from m_cells.
    void index();

    TreeMeta m_meta;
    QList<Cell> m_cells;
    QList<Branch> m_branches;
    QHash<QString, int> m_byId;
    QHash<int, int> m_branchIndex;
    QList<int> m_branchOf; ///< per cell: its index into m_branches
    QList<int> m_parentOf; ///< per cell: its parent's index, -1 for attempt 0
    double m_bestEffective = 0.0;
    int m_bestIndex = -1;
};

} // namespace dreamrsi
