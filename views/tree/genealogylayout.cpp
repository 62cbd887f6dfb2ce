#include "genealogylayout.h"

namespace dreamrsi {

namespace {

constexpr int NoParent = RunStructure::NoParent;

} // namespace

GenealogyLayout::GenealogyLayout(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const RunStructure> structure,
                                 Mode mode, const Metrics &metrics)
    : m_tree(std::move(tree))
    , m_structure(std::move(structure))
    , m_mode(mode)
    , m_metrics(metrics)
{
    if (m_tree && m_structure && m_structure->cellCount() == m_tree->cellCount())
        place();
    else
        m_tree.reset();
}

double GenealogyLayout::columnX(double column) const
{
    return m_metrics.margin + column * (m_metrics.cellWidth + m_metrics.columnGap);
}

double GenealogyLayout::rowTop(int depth) const
{
    const double header = m_mode == Mode::Islands ? m_metrics.headerHeight : 0.0;
    return m_metrics.margin + header + depth * (m_metrics.cellHeight + m_metrics.rowGap);
}

QRectF GenealogyLayout::cellRect(int cell) const
{
    if (!m_tree || cell < 0 || cell >= int(m_column.size()))
        return {};
    return QRectF(columnX(m_column.at(cell)), rowTop(m_structure->depthOf(cell)), m_metrics.cellWidth, m_metrics.cellHeight);
}

QRectF GenealogyLayout::parentRect(int cell) const
{
    if (!m_tree || cell < 0 || cell >= int(m_parentDrawn.size()))
        return {};
    const int p = m_parentDrawn.at(cell);
    return p == RunStructure::Root ? m_root : p >= 0 ? cellRect(p) : QRectF();
}

template<typename Children>
int GenealogyLayout::placeForest(const QList<int> &roots, int firstColumn, Children &&childrenOf)
{
    // Post-order without recursion (a run's lineages are thousands deep).
    int next = firstColumn;
    const auto columnOf = [this](int node) { return node == RunStructure::Root ? m_rootColumn : m_column.at(node); };
    const auto setColumn = [this](int node, double c) {
        if (node == RunStructure::Root)
            m_rootColumn = c;
        else
            m_column[node] = c;
    };
    struct Frame
    {
        int node;
        QList<int> children;
        int at = 0;
    };
    QList<Frame> stack;
    for (const int root : roots) {
        stack.append(Frame{root, childrenOf(root)});
        while (!stack.isEmpty()) {
            Frame &top = stack.last();
            if (top.at < int(top.children.size())) {
                const int child = top.children.at(top.at++);
                stack.append(Frame{child, childrenOf(child)});
                continue;
            }
            const Frame done = stack.takeLast();
            if (done.children.isEmpty())
                setColumn(done.node, next++);
            else
                setColumn(done.node, (columnOf(done.children.first()) + columnOf(done.children.last())) / 2.0);
        }
    }
    return next - firstColumn;
}

void GenealogyLayout::place()
{
    const RunStructure &s = *m_structure;
    const int n = m_tree->cellCount();
    m_column.fill(0.0, n);
    m_parentDrawn.fill(NoParent, n);
    m_migrant.fill(false, n);
    const auto byIslandThenSeq = [&s](QList<int> cells) {
        std::stable_sort(cells.begin(), cells.end(), [&s](int a, int b) { return s.islandOf(a) < s.islandOf(b); });
        return cells;
    };
    int columns = 0;
    if (m_mode == Mode::Genealogy) {
        for (int c = 0; c < n; ++c)
            m_parentDrawn[c] = s.parentOf(c);
        QList<int> roots{RunStructure::Root};
        roots.append(s.childrenOf(NoParent));
        columns = placeForest(roots, 0, [&](int node) { return byIslandThenSeq(s.childrenOf(node)); });
        m_root = QRectF(columnX(m_rootColumn) - m_metrics.cellWidth / 2, rowTop(s.rootDepth()), m_metrics.cellWidth * 2,
                        m_metrics.cellHeight);
    } else {
        int firstColumn = 0;
        for (int b = 0; b < int(s.islands().size()); ++b) {
            const RunStructure::Island &island = s.islands().at(b);
            const auto sameIsland = [&s, &island](int node) {
                QList<int> kept;
                for (const int child : s.childrenOf(node)) {
                    if (s.islandOf(child) == island.id)
                        kept.append(child);
                }
                return kept;
            };
            QList<int> roots;
            if (island.hasInitial)
                roots.append(RunStructure::Root);
            for (const int c : island.cells) {
                const int p = s.parentOf(c);
                const bool home = (p >= 0 && s.islandOf(p) == island.id) || (p == RunStructure::Root && island.hasInitial);
                if (!home)
                    roots.append(c);
                m_parentDrawn[c] = p == RunStructure::Root && s.rootIsland() == RunStructure::NoIsland ? NoParent : p;
                m_migrant[c] = !home && p != NoParent && island.id != RunStructure::NoIsland
                               && (p >= 0 ? s.islandOf(p) : s.rootIsland()) != RunStructure::NoIsland;
            }
            // At least room for the header's short form ("Island 12", "3 in, 5 out").
            constexpr int MinColumns = 8;
            const int used = std::max(MinColumns, placeForest(roots, firstColumn, sameIsland));
            const double left = columnX(firstColumn) - m_metrics.columnGap;
            const double right = columnX(firstColumn + used);
            m_bands.append(Band{b, QRectF(left, m_metrics.margin, right - left, 0.0), QRectF()});
            // Bands sit a gap apart: whole columns, so columnX stays one formula.
            const double pitch = m_metrics.cellWidth + m_metrics.columnGap;
            firstColumn += used + int(std::ceil(m_metrics.bandGap / pitch));
        }
        columns = std::max(1, firstColumn);
        if (s.rootIsland() != RunStructure::NoIsland)
            m_root = QRectF(columnX(m_rootColumn) - m_metrics.cellWidth / 2, rowTop(s.rootDepth()), m_metrics.cellWidth * 2,
                            m_metrics.cellHeight);
    }

    m_rows.clear();
    m_rows.resize(s.maxDepth() + 1);
    for (int c = 0; c < n; ++c)
        m_rows[s.depthOf(c)].append(c);
    for (QList<int> &row : m_rows)
        std::sort(row.begin(), row.end(), [this](int a, int b) { return m_column.at(a) < m_column.at(b); });
    const double bottom = rowTop(s.maxDepth() + 1) - m_metrics.rowGap;
    for (Band &band : m_bands) {
        band.rect.setBottom(bottom + m_metrics.rowGap / 2);
        band.header = QRectF(band.rect.left(), band.rect.top(), band.rect.width(), m_metrics.headerHeight - 4);
    }
    const double width = columnX(columns) - m_metrics.columnGap + m_metrics.margin + m_metrics.cellWidth / 2;
    m_scene = QRectF(0, 0, std::max(width, m_root.right() + m_metrics.margin), bottom + m_metrics.margin);
}

int GenealogyLayout::cellAt(const QPointF &p) const
{
    int found = -1;
    forEachCellIn(QRectF(p, QSizeF(0.001, 0.001)), [&found](int cell, const QRectF &) { found = cell; });
    return found;
}

} // namespace dreamrsi
