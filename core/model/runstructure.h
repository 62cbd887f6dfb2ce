#pragma once

#include "discoverytree.h"

#include <QList>

#include <optional>

namespace dreamrsi {

/// The genealogy and islands of a tree's cells, derived once from the tree
/// (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run), headless so that the layouts
/// of the Discovery tab and the tests read the same numbers.
///
/// Every cell has a real parent: the attempt before it on its branch; for
/// attempt 0 the cell a fork came from (payload `forked_from`), nothing for
/// an orphan (payload `orphan`), else the initial program (the root). Its
/// depth is its generation (`origin.generation` of an imported run) when
/// that lies below its parent's depth, else its parent's depth + 1 (our own
/// trees: attempt + 1). Its island is `origin.island` when that is a whole
/// number, else none (-1). The initial program's island and generation come
/// from the top-level `initial_origin` when the import kept it.
class RunStructure
{
public:
    /// parentOf(): the cell hangs from the initial program.
    static constexpr int Root = -1;
    /// parentOf(): the cell's parent is missing from the run (an orphan).
    static constexpr int NoParent = -2;
    /// islandOf(): the cell has no island.
    static constexpr int NoIsland = -1;

    /// One island's programs.
    struct Island
    {
        int id = NoIsland;           ///< NoIsland for the group of cells without one
        QList<int> cells;            ///< its cells, in creation order
        bool hasInitial = false;     ///< the initial program lives here too
        int count = 0;               ///< programs: cells + the initial program when it lives here
        /// Its best program: a cell index, Root for the initial program, or
        /// NoParent when none has a finite ok score.
        int best = NoParent;
        std::optional<double> bestScore;
        int migrantsIn = 0;          ///< its cells whose parent lives on another island
        int migrantsOut = 0;         ///< cells elsewhere whose parent lives here
    };

    /// A child whose real parent lives on another island.
    struct Migration
    {
        int child = -1;  ///< cell index
        int parent = -1; ///< cell index, or Root for the initial program
        int from = NoIsland;
        int to = NoIsland;
    };

    RunStructure() = default;
    static RunStructure of(const DiscoveryTree &tree);

    /// Whether the tree is an imported run (top-level `imported_from`).
    bool isImported() const { return m_imported; }
    int cellCount() const { return int(m_parent.size()); }
    int parentOf(int cell) const { return m_parent.at(cell); }
    int depthOf(int cell) const { return m_depth.at(cell); }
    int islandOf(int cell) const { return m_island.at(cell); }
    /// The children of a cell, or of the initial program (`Root`), in
    /// creation order; the cells without a parent under `NoParent`.
    const QList<int> &childrenOf(int parent) const;
    /// Depth of the initial program (its generation, 0 when not kept).
    int rootDepth() const { return m_rootDepth; }
    int rootIsland() const { return m_rootIsland; }
    std::optional<double> rootScore() const { return m_rootScore; }
    int maxDepth() const { return m_maxDepth; }

    /// Islands in ascending id, the group without an island last (only when
    /// some cell has none).
    const QList<Island> &islands() const { return m_islands; }
    /// Index into islands() of island `id`, -1 when absent.
    int islandIndex(int id) const;
    /// Every migration, in the child's creation order.
    const QList<Migration> &migrations() const { return m_migrations; }
    /// Migrations from island `from` to island `to`.
    int migrationCount(int from, int to) const;

private:
    bool m_imported = false;
    QList<int> m_parent;
    QList<int> m_depth;
    QList<int> m_island;
    QList<QList<int>> m_children; ///< per cell
    QList<int> m_rootChildren;
    QList<int> m_orphans;
    int m_rootDepth = 0;
    int m_rootIsland = NoIsland;
    std::optional<double> m_rootScore;
    int m_maxDepth = 0;
    QList<Island> m_islands;
    QList<Migration> m_migrations;
};

} // namespace dreamrsi
