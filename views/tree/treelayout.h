#pragma once

#include "model/discoverytree.h"

#include <QList>
#include <QPointF>
#include <QRectF>

#include <algorithm>
#include <memory>

namespace dreamrsi {

/// Where every cell of a discovery tree sits, in scene units, independent of
/// any painting: branches are columns (ascending branch id, left to right),
/// attempts are rows counted down from the root, which sits centred above
/// the first row. Lookups by point and by rectangle cost O(cells returned).
class TreeLayout
{
public:
    struct Metrics
    {
        double cellWidth = 26.0;
        double cellHeight = 18.0;
        double columnGap = 6.0;
        double rowGap = 6.0;
        double margin = 16.0;
        double headerHeight = 16.0; ///< branch labels above the root bus
        double rootHeight = 18.0;
    };

    TreeLayout() = default;
    explicit TreeLayout(std::shared_ptr<const DiscoveryTree> tree) : TreeLayout(std::move(tree), Metrics{}) {}
    TreeLayout(std::shared_ptr<const DiscoveryTree> tree, const Metrics &metrics);

    const std::shared_ptr<const DiscoveryTree> &tree() const { return m_tree; }
    const Metrics &metrics() const { return m_metrics; }

    int columnCount() const;
    int rowCount() const { return m_rows; }
    /// The whole scene, margins included.
    QRectF sceneRect() const;
    QRectF rootRect() const;
    /// Rectangle of cells()[cellIndex]; empty for an out-of-range index.
    QRectF cellRect(int cellIndex) const;
    /// Column of a branch index (index into DiscoveryTree::branches()).
    QRectF columnRect(int column) const;
    /// Horizontal position of the bus that joins the root to every attempt 0.
    double busY() const;
    /// Where attempt `attempt` of column `column` sits, for any column and
    /// row (also past the tree's: where a cell still running will be).
    QRectF slotRect(int column, int attempt) const;

    /// The cell whose rectangle contains p, or -1.
    int cellAt(const QPointF &p) const;
    /// Every cell whose rectangle intersects r, column by column.
    QList<int> cellsIn(const QRectF &r) const;
    /// Calls f(cellIndex, cellRect) for every cell cellsIn(r) gives, in the
    /// same order, without looking each cell up (what a painter of
    /// thousands of cells wants).
    template<typename F>
    void forEachCellIn(const QRectF &r, F &&f) const;
    /// Columns intersecting r as [first, last]; first > last when none.
    std::pair<int, int> columnsIn(const QRectF &r) const;

private:
    /// Rows whose cells may intersect r, as [first, last] (first > last when none).
    std::pair<int, int> rowsIn(const QRectF &r) const;
    double columnX(int column) const;
    double rowY(int attempt) const;

    std::shared_ptr<const DiscoveryTree> m_tree;
    Metrics m_metrics;
    int m_rows = 0;
};

template<typename F>
void TreeLayout::forEachCellIn(const QRectF &r, F &&f) const
{
    if (!m_tree || r.isEmpty())
        return;
    const auto [firstRow, lastRow] = rowsIn(r);
    if (lastRow < firstRow)
        return;
    const auto [firstCol, lastCol] = columnsIn(r);
    const auto &branches = m_tree->branches();
    for (int col = firstCol; col <= lastCol; ++col) {
        const QList<int> &cells = branches.at(col).cells;
        const int end = std::min(int(cells.size()) - 1, lastRow);
        const double x = columnX(col);
        for (int a = firstRow; a <= end; ++a) {
            // A branch's cells are its attempts in order: cell a is attempt a.
            const QRectF rect(x, rowY(a), m_metrics.cellWidth, m_metrics.cellHeight);
            if (rect.intersects(r))
                f(cells.at(a), rect);
        }
    }
}

} // namespace dreamrsi
