#include "treelayout.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

TreeLayout::TreeLayout(std::shared_ptr<const DiscoveryTree> tree, const Metrics &metrics)
    : m_tree(std::move(tree))
    , m_metrics(metrics)
{
    m_rows = m_tree ? m_tree->maxDepth() : 0;
}

int TreeLayout::columnCount() const
{
    return m_tree ? int(m_tree->branches().size()) : 0;
}

double TreeLayout::columnX(int column) const
{
    return m_metrics.margin + column * (m_metrics.cellWidth + m_metrics.columnGap);
}

double TreeLayout::rowY(int attempt) const
{
    return busY() + m_metrics.rowGap * 2 + attempt * (m_metrics.cellHeight + m_metrics.rowGap);
}

double TreeLayout::busY() const
{
    return m_metrics.margin + m_metrics.rootHeight + m_metrics.rowGap + m_metrics.headerHeight;
}

QRectF TreeLayout::sceneRect() const
{
    const int cols = std::max(columnCount(), 1);
    const double width = 2 * m_metrics.margin + cols * m_metrics.cellWidth + (cols - 1) * m_metrics.columnGap;
    const double height = rowY(m_rows) - m_metrics.rowGap + m_metrics.margin;
    return QRectF(0, 0, width, height);
}

QRectF TreeLayout::rootRect() const
{
    const double width = std::max(m_metrics.cellWidth * 2, m_metrics.cellWidth);
    const double cx = sceneRect().center().x();
    return QRectF(cx - width / 2, m_metrics.margin, width, m_metrics.rootHeight);
}

QRectF TreeLayout::slotRect(int column, int attempt) const
{
    return QRectF(columnX(column), rowY(attempt), m_metrics.cellWidth, m_metrics.cellHeight);
}

QRectF TreeLayout::columnRect(int column) const
{
    if (column < 0 || column >= columnCount())
        return {};
    return QRectF(columnX(column), busY(), m_metrics.cellWidth, rowY(m_rows) - busY());
}

QRectF TreeLayout::cellRect(int cellIndex) const
{
    if (!m_tree || cellIndex < 0 || cellIndex >= m_tree->cellCount())
        return {};
    const Cell &c = m_tree->cells().at(cellIndex);
    const int column = m_tree->branchIndex(c.branch);
    return QRectF(columnX(column), rowY(c.attempt), m_metrics.cellWidth, m_metrics.cellHeight);
}

std::pair<int, int> TreeLayout::columnsIn(const QRectF &r) const
{
    const double pitch = m_metrics.cellWidth + m_metrics.columnGap;
    const int first = std::max(0, int(std::floor((r.left() - m_metrics.margin) / pitch)));
    const int last = std::min(columnCount() - 1, int(std::floor((r.right() - m_metrics.margin) / pitch)));
    return {first, last};
}

std::pair<int, int> TreeLayout::rowsIn(const QRectF &r) const
{
    const double pitch = m_metrics.cellHeight + m_metrics.rowGap;
    return {std::max(0, int(std::floor((r.top() - rowY(0)) / pitch))), int(std::floor((r.bottom() - rowY(0)) / pitch))};
}

QList<int> TreeLayout::cellsIn(const QRectF &r) const
{
    QList<int> result;
    forEachCellIn(r, [&result](int cell, const QRectF &) { result.append(cell); });
    return result;
}

int TreeLayout::cellAt(const QPointF &p) const
{
    const QList<int> hits = cellsIn(QRectF(p, QSizeF(0.001, 0.001)));
    for (int idx : hits) {
        if (cellRect(idx).contains(p))
            return idx;
    }
    return -1;
}

} // namespace dreamrsi
