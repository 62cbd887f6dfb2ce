#pragma once

#include "model/discoverytree.h"
#include "model/runstructure.h"

#include <QList>
#include <QLineF>
#include <QRectF>

#include <algorithm>
#include <cmath>
#include <memory>

namespace dreamrsi {

/// Where every program of a run sits when drawn as its genealogy
/// (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run), in scene units, independent
/// of painting:
///
/// - **Genealogy**: every cell under its real parent (RunStructure), rows
///   by depth (the generation), the initial program on top; siblings in
///   (island, creation) order, so that the islands' lineages sit side by
///   side; orphans' trees to the right.
/// - **Islands**: one band per island, side by side in ascending id, each
///   a forest of its own lineages: a cell whose parent lives on another
///   island starts a tree in its band and is a migration, drawn from its
///   parent across the bands. Each band has a header (count, best).
///
/// Either is a tidy tree: leaves take one column each left to right, a
/// parent sits centred over its first and last child.
class GenealogyLayout
{
public:
    enum class Mode { Genealogy, Islands };

    struct Metrics
    {
        double cellWidth = 14.0;
        double cellHeight = 10.0;
        double columnGap = 4.0;
        double rowGap = 12.0;
        double bandGap = 36.0;  ///< between islands' bands
        double margin = 16.0;
        double headerHeight = 8.0; ///< an island band's room above its first row (the view draws its header above the band)
    };

    /// One island's band (Islands mode).
    struct Band
    {
        int island = 0;  ///< index into RunStructure::islands()
        QRectF rect;     ///< the band, header included
        QRectF header;
    };

    GenealogyLayout() = default;
    GenealogyLayout(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const RunStructure> structure, Mode mode)
        : GenealogyLayout(std::move(tree), std::move(structure), mode, Metrics())
    {
    }
    GenealogyLayout(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const RunStructure> structure, Mode mode,
                    const Metrics &metrics);

    Mode mode() const { return m_mode; }
    const std::shared_ptr<const DiscoveryTree> &tree() const { return m_tree; }
    const std::shared_ptr<const RunStructure> &structure() const { return m_structure; }
    const Metrics &metrics() const { return m_metrics; }

    QRectF sceneRect() const { return m_scene; }
    /// The initial program's box; empty when it is not drawn (Islands mode
    /// without its island kept).
    QRectF rootRect() const { return m_root; }
    QRectF cellRect(int cell) const;
    /// Depth drawn at row y of the scene (the row's top), for tests and axes.
    double rowTop(int depth) const;
    /// The parent's box a cell hangs from in this layout, and whether that
    /// link crosses islands (a migration: Islands mode only). Empty when
    /// it hangs from nothing drawn.
    QRectF parentRect(int cell) const;
    bool isMigration(int cell) const { return m_mode == Mode::Islands && m_migrant.value(cell, false); }
    const QList<Band> &bands() const { return m_bands; }

    /// The cell whose box contains p, -1 when none (rootRect() is no cell).
    int cellAt(const QPointF &p) const;
    /// Calls f(cell, rect) for every cell whose box meets r.
    template<typename F>
    void forEachCellIn(const QRectF &r, F &&f) const;

private:
    void place();
    /// Lays out the trees under `roots` from column `firstColumn`, a cell's
    /// children being those `childrenOf` gives; returns the columns used.
    template<typename Children>
    int placeForest(const QList<int> &roots, int firstColumn, Children &&childrenOf);
    double columnX(double column) const;

    std::shared_ptr<const DiscoveryTree> m_tree;
    std::shared_ptr<const RunStructure> m_structure;
    Mode m_mode = Mode::Genealogy;
    Metrics m_metrics;
    QRectF m_scene;
    QRectF m_root;
    QList<double> m_column;     ///< per cell: its column (half columns over two children)
    QList<int> m_parentDrawn;   ///< per cell: the cell (or Root) its link goes to, NoParent for none
    QList<bool> m_migrant;
    QList<Band> m_bands;
    double m_rootColumn = -1.0;
    /// Cells per depth, each row sorted by x (the lookups).
    QList<QList<int>> m_rows;
};

template<typename F>
void GenealogyLayout::forEachCellIn(const QRectF &r, F &&f) const
{
    if (!m_tree || r.isEmpty())
        return;
    const double pitch = m_metrics.cellHeight + m_metrics.rowGap;
    const int first = std::max(0, int(std::floor((r.top() - rowTop(0)) / pitch)));
    const int last = std::min(int(m_rows.size()) - 1, int(std::floor((r.bottom() - rowTop(0)) / pitch)));
    for (int d = first; d <= last; ++d) {
        const QList<int> &row = m_rows.at(d);
        // First cell whose right edge reaches r.left().
        auto it = std::lower_bound(row.cbegin(), row.cend(), r.left() - m_metrics.cellWidth,
                                   [this](int cell, double x) { return columnX(m_column.at(cell)) < x; });
        for (; it != row.cend(); ++it) {
            const double x = columnX(m_column.at(*it));
            if (x > r.right())
                break;
            const QRectF rect(x, rowTop(d), m_metrics.cellWidth, m_metrics.cellHeight);
            if (rect.intersects(r))
                f(*it, rect);
        }
    }
}

} // namespace dreamrsi
