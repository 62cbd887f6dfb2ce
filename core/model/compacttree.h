#pragma once

#include <QString>
#include <QStringView>

#include <vector>

namespace dreamrsi {

class DiscoveryTree;

/// What replaying a built-in policy needs of a world and nothing more: each
/// cell's place, effective score and the outcome facts the built-in rules
/// read, and its id as UTF-8, laid out by (branch, attempt) in flat arrays.
///
/// The replay of `dreamrsi replay --policy builtin:NAME` runs on this form
/// (CompactReplay): it costs a fraction of a DiscoveryTree to build and to
/// walk, since it holds no QString, payload or per-cell list. It is made
/// straight from a tree file (TreeJson::readCompactFile), which checks
/// everything TreeJson::parse checks, or from a validated DiscoveryTree;
/// both give the same value for the same world.
struct CompactTree
{
    struct CellFacts
    {
        double score = 0.0;     ///< the raw score, when hasScore
        double effective = 0.0; ///< e(v) (docs/tree-format.md#effective-score-best-score-scorability)
        int branch = 0;         ///< branch id
        int attempt = 0;
        bool hasScore = false;
        bool success = false;   ///< evaluated, no error, fail class "ok" (docs/policy-api.md#helpers isSuccess)
        bool hard = false;      ///< fail class "env" (docs/policy-api.md#helpers failedHard)
        friend bool operator==(const CellFacts &, const CellFacts &) = default;
    };
    struct Branch
    {
        int id = 0;
        int first = 0;  ///< its attempt 0 in cells; attempt a is cells[first + a]
        int length = 0; ///< L_b
        friend bool operator==(const Branch &, const Branch &) = default;
    };

    std::vector<CellFacts> cells; ///< sorted by (branch, attempt)
    std::vector<Branch> branches; ///< ascending id
    QString ids;                  ///< the cells' ids back to back, in the order of cells
    std::vector<qsizetype> idEnds; ///< cell i's id is ids[idEnds[i-1] (0 for i = 0), idEnds[i])
    double best = 0.0;            ///< S = max e(v), 0 for an empty world
    /// The tree's `approximate` (docs/tree-format.md#imported-runs): replay
    /// asks the cache for it before reading a file.
    bool approximate = false;

    int cellCount() const { return int(cells.size()); }
    bool isScorable() const { return best > 0.0; }
    QStringView id(int cell) const
    {
        const qsizetype from = cell == 0 ? 0 : idEnds[size_t(cell) - 1];
        return QStringView(ids).mid(from, idEnds[size_t(cell)] - from);
    }

    /// The compact form of a validated tree.
    static CompactTree fromTree(const DiscoveryTree &tree);

    friend bool operator==(const CompactTree &, const CompactTree &) = default;
};

} // namespace dreamrsi
