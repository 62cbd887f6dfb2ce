#include "runstructureview.h"

#include "colormap.h"
#include "failglyph.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

constexpr int Root = RunStructure::Root;
constexpr double MinScale = 1e-4;
constexpr double MaxScale = 6.0;

QRectF toDevice(const QRectF &r, double scale, const QPointF &offset)
{
    return QRectF(r.topLeft() * scale + offset, r.size() * scale);
}

QString scoreText(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

RunStructureView::RunStructureView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
}

RunStructureView::Prepared RunStructureView::prepare(std::shared_ptr<const DiscoveryTree> tree,
                                                    std::shared_ptr<const RunStructure> structure, TreeCellStyles styles)
{
    Prepared p;
    p.tree = std::move(tree);
    if (!p.tree)
        return p;
    p.structure = structure ? std::move(structure) : std::make_shared<const RunStructure>(RunStructure::of(*p.tree));
    p.styles = styles.fills.size() == p.tree->cellCount() ? std::move(styles) : TreeCellStyles::of(*p.tree);
    p.genealogy = GenealogyLayout(p.tree, p.structure, GenealogyLayout::Mode::Genealogy);
    p.islands = GenealogyLayout(p.tree, p.structure, GenealogyLayout::Mode::Islands);
    return p;
}

void RunStructureView::setPrepared(Prepared prepared)
{
    m_tree = std::move(prepared.tree);
    m_structure = std::move(prepared.structure);
    m_styles = std::move(prepared.styles);
    m_genealogy = std::move(prepared.genealogy);
    m_islands = std::move(prepared.islands);
    m_selected = -1;
    m_matches.clear();
    relayout();
}

void RunStructureView::setTree(std::shared_ptr<const DiscoveryTree> tree)
{
    setPrepared(prepare(std::move(tree)));
}

void RunStructureView::setMode(GenealogyLayout::Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    relayout();
}

void RunStructureView::relayout()
{
    m_layout = m_mode == GenealogyLayout::Mode::Islands ? m_islands : m_genealogy;
    fitToView();
}

void RunStructureView::setDarkPalette(bool dark)
{
    m_palette = dark ? TreePalette::dark() : TreePalette::light();
    update();
}

void RunStructureView::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    update();
}

void RunStructureView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    update();
}

void RunStructureView::setMatches(QSet<int> cells)
{
    m_matches = std::move(cells);
    update();
}

void RunStructureView::setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells)
{
    m_pathTree = std::move(tree);
    m_path = std::move(cells);
    update();
}

void RunStructureView::selectCell(int cellIndex)
{
    m_selected = m_tree && cellIndex >= 0 && cellIndex < m_tree->cellCount() ? cellIndex : -1;
    update();
}

void RunStructureView::centerOn(int cellIndex)
{
    const QRectF r = m_layout.cellRect(cellIndex);
    if (r.isEmpty())
        return;
    m_scale = std::max(m_scale, 1.0);
    m_offset = QPointF(width() / 2.0, height() / 2.0) - r.center() * m_scale;
    m_fitted = false;
    update();
}

void RunStructureView::fitToView()
{
    const QRectF scene = m_layout.sceneRect();
    if (scene.isEmpty() || width() <= 0 || height() <= 0) {
        m_scale = 1.0;
        m_offset = {};
    } else {
        m_scale = std::clamp(std::min(width() / scene.width(), height() / scene.height()), MinScale, MaxScale);
        m_offset = QPointF((width() - scene.width() * m_scale) / 2, (height() - scene.height() * m_scale) / 2);
    }
    m_fitted = true;
    update();
}

void RunStructureView::zoomIn()
{
    zoomAt(1.25, rect().center());
}

void RunStructureView::zoomOut()
{
    zoomAt(0.8, rect().center());
}

void RunStructureView::zoomAt(double factor, const QPointF &anchor)
{
    const double scale = std::clamp(m_scale * factor, MinScale, MaxScale);
    const QPointF scenePoint = (anchor - m_offset) / m_scale;
    m_scale = scale;
    m_offset = anchor - scenePoint * m_scale;
    m_fitted = false;
    update();
}

QString RunStructureView::islandTitle(int islandIndex) const
{
    if (!m_structure || islandIndex < 0 || islandIndex >= int(m_structure->islands().size()))
        return {};
    const RunStructure::Island &island = m_structure->islands().at(islandIndex);
    const QString name = island.id == RunStructure::NoIsland ? tr("No island") : tr("Island %1").arg(island.id);
    const QString count = tr("%n program(s)", nullptr, island.count);
    if (!island.bestScore)
        return tr("%1 · %2 · no score").arg(name, count);
    const QString best = island.best == Root ? tr("initial program") : m_tree->cells().at(island.best).id;
    return tr("%1 · %2 · best %3 (%4)").arg(name, count, scoreText(*island.bestScore), best);
}

QString RunStructureView::islandMigrations(int islandIndex) const
{
    if (!m_structure || islandIndex < 0 || islandIndex >= int(m_structure->islands().size()))
        return {};
    const RunStructure::Island &island = m_structure->islands().at(islandIndex);
    return tr("migrations: %1 in, %2 out").arg(island.migrantsIn).arg(island.migrantsOut);
}

QStringList RunStructureView::legendLabels() const
{
    QStringList rows{tr("Parent to child (real parents, forks included)")};
    if (m_mode == GenealogyLayout::Mode::Islands)
        rows.append(tr("Migration: parent on another island"));
    rows.append(tr("Best program"));
    rows.append(tr("Failed: no score"));
    rows.append(tr("Rows: generation"));
    return rows;
}

QSizeF RunStructureView::legendSize(const QFontMetricsF &fm) const
{
    double width = fm.horizontalAdvance(tr("Score"));
    for (const QString &row : legendLabels())
        width = std::max(width, fm.horizontalAdvance(row) + fm.height() * 1.6);
    const int rows = int(legendLabels().size()) + 2; // title + colour bar
    return QSizeF(width + fm.height(), rows * fm.height() * 1.3 + fm.height());
}

void RunStructureView::paintLegend(QPainter &painter, const QRectF &area, const TreePalette &palette) const
{
    const QFontMetricsF fm(painter.font());
    const double line = fm.height() * 1.3;
    const double pad = fm.height() / 2;
    painter.save();
    painter.setPen(QPen(palette.edge, 0));
    QColor box = palette.background;
    box.setAlpha(235);
    painter.setBrush(box);
    painter.drawRect(area);
    double y = area.top() + pad;
    const double x = area.left() + pad;
    const double w = area.width() - 2 * pad;
    painter.setPen(palette.text);
    painter.drawText(QRectF(x, y, w, line), Qt::AlignLeft | Qt::AlignVCenter,
                     m_styles.hasScores ? tr("Score %1 … %2").arg(scoreText(m_styles.scoreMin), scoreText(m_styles.scoreMax))
                                        : tr("Score"));
    y += line;
    // The colour bar.
    const int steps = 32;
    for (int i = 0; i < steps; ++i) {
        const QRectF r(x + w * i / steps, y + line * 0.2, w / steps + 0.5, line * 0.6);
        painter.fillRect(r, Colormap::viridis(double(i) / (steps - 1)));
    }
    y += line;
    const double mark = fm.height();
    int row = 0;
    for (const QString &label : legendLabels()) {
        const QRectF icon(x, y + (line - mark * 0.7) / 2, mark, mark * 0.7);
        const QPointF mid(icon.left(), icon.center().y());
        painter.save();
        if (row == 0) {
            painter.setPen(QPen(palette.edge, 1.2));
            painter.drawLine(mid, mid + QPointF(mark, 0));
        } else if (m_mode == GenealogyLayout::Mode::Islands && row == 1) {
            painter.setPen(QPen(palette.batch, 1.6));
            painter.drawLine(mid, mid + QPointF(mark, 0));
        } else if (label == tr("Best program")) {
            painter.setPen(QPen(palette.best, 1.6));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(icon);
        } else if (label == tr("Failed: no score")) {
            painter.fillRect(icon, palette.noScore);
        } else {
            painter.setPen(QPen(palette.text, 1));
            painter.drawLine(QPointF(icon.center().x(), icon.top()), QPointF(icon.center().x(), icon.bottom()));
        }
        painter.restore();
        painter.drawText(QRectF(x + mark * 1.6, y, w - mark * 1.6, line), Qt::AlignLeft | Qt::AlignVCenter, label);
        y += line;
        ++row;
    }
    painter.restore();
}

void RunStructureView::paintScene(QPainter &painter, const QRectF &exposed, double scale, const QPointF &offset,
                                  const TreePalette &palette) const
{
    if (!m_tree || !m_structure)
        return;
    const QRectF scene((exposed.topLeft() - offset) / scale, exposed.size() / scale);
    const RunStructure &s = *m_structure;
    const GenealogyLayout::Metrics &m = m_layout.metrics();
    const double cellPx = m.cellWidth * scale;

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    // Island bands and their headers.
    const QList<GenealogyLayout::Band> &bands = m_layout.bands();
    QFont headerFont = painter.font();
    headerFont.setPixelSize(std::max(1, int(std::lround(11 * scale))));
    for (int b = 0; b < int(bands.size()); ++b) {
        const QRectF band = toDevice(bands.at(b).rect, scale, offset);
        if (!band.intersects(exposed))
            continue;
        painter.fillRect(band, b % 2 == 0 ? palette.background.darker(104) : palette.background.darker(108));
        if (11 * scale >= 5) {
            const QRectF header = toDevice(bands.at(b).header, scale, offset).adjusted(4 * scale, 0, 0, 0);
            painter.setFont(headerFont);
            painter.setPen(palette.text);
            const double half = header.height() / 2;
            painter.drawText(QRectF(header.left(), header.top(), header.width() * 4, half), Qt::AlignLeft | Qt::AlignVCenter,
                             islandTitle(bands.at(b).island));
            painter.drawText(QRectF(header.left(), header.top() + half, header.width() * 4, half),
                             Qt::AlignLeft | Qt::AlignVCenter, islandMigrations(bands.at(b).island));
        }
    }

    // Links: an elbow from parent to child; migrations straight across.
    QList<QLineF> links, migrations;
    const double elbowPx = m.rowGap * scale;
    const int n = m_tree->cellCount();
    for (int c = 0; c < n; ++c) {
        const QRectF parent = m_layout.parentRect(c);
        if (parent.isEmpty())
            continue;
        const QRectF child = m_layout.cellRect(c);
        if (!parent.united(child).intersects(scene))
            continue;
        const QPointF from = QPointF(parent.center().x(), parent.bottom()) * scale + offset;
        const QPointF to = QPointF(child.center().x(), child.top()) * scale + offset;
        if (m_layout.isMigration(c)) {
            migrations.append(QLineF(from, to));
            continue;
        }
        // One segment straight down, or where elbows would be a few pixels
        // tall (a fitted large run: a third of the lines to draw).
        if (std::abs(from.x() - to.x()) < 0.5 || elbowPx < 4) {
            links.append(QLineF(from, to));
            continue;
        }
        const double midY = to.y() - elbowPx / 2;
        links.append(QLineF(from, QPointF(from.x(), midY)));
        links.append(QLineF(QPointF(from.x(), midY), QPointF(to.x(), midY)));
        links.append(QLineF(QPointF(to.x(), midY), to));
    }
    painter.setPen(QPen(palette.edge, 0));
    painter.drawLines(links);
    if (!migrations.isEmpty()) {
        // Solid, aliased and cosmetic: long antialiased strokes across the
        // bands cost milliseconds each.
        QPen pen(palette.batch, scale >= 0.5 ? 2 : 1);
        pen.setCosmetic(true);
        painter.setPen(pen);
        painter.drawLines(migrations);
    }

    // The initial program.
    if (!m_layout.rootRect().isEmpty()) {
        const QRectF root = toDevice(m_layout.rootRect(), scale, offset);
        if (root.intersects(exposed)) {
            painter.fillRect(root, s.rootScore() ? m_styles.colorFor(*s.rootScore()) : palette.noScore);
            painter.setPen(QPen(palette.cellBorder, 0));
            painter.drawRect(root);
        }
    }

    // Cells.
    const bool detail = cellPx >= 8;
    const int best = m_tree->bestCellIndex();
    m_layout.forEachCellIn(scene, [&](int cell, const QRectF &rect) {
        const QRectF r = toDevice(rect, scale, offset);
        const QColor fill = m_styles.fills.value(cell);
        painter.fillRect(r, fill.isValid() ? fill : palette.noScore);
        if (detail) {
            painter.setPen(QPen(palette.cellBorder, 0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(r);
            const FailGlyph glyph = m_styles.glyphs.value(cell, FailGlyph::None);
            if (glyph != FailGlyph::None)
                FailGlyphs::paint(painter, glyph, r.adjusted(1, 1, -1, -1), palette.glyph);
        }
    });
    paintPath(painter, scale, offset, palette);
    // Marks over the cells: matches, the best, the selection.
    const auto ring = [&](int cell, const QColor &color, double grow) {
        const QRectF r = toDevice(m_layout.cellRect(cell), scale, offset);
        if (r.isEmpty() || !r.intersects(exposed.adjusted(-8, -8, 8, 8)))
            return;
        painter.setPen(QPen(color, 2));
        painter.setBrush(Qt::NoBrush);
        const double g = std::max(grow, 3.0 - r.width() / 2);
        painter.drawRect(r.adjusted(-g, -g, g, g));
    };
    for (const int c : m_matches)
        ring(c, palette.match, 1.5);
    if (best >= 0)
        ring(best, palette.best, 1.5);
    if (m_selected >= 0)
        ring(m_selected, palette.selection, 3);
    painter.restore();
}

void RunStructureView::paintPath(QPainter &painter, double scale, const QPointF &offset, const TreePalette &palette) const
{
    const QList<int> cells = path();
    if (cells.isEmpty())
        return;
    // From the initial program, where it is drawn and the path starts there
    // (not at an orphan), through each step's cell; in Islands mode a step
    // onto another island crosses the bands as its migration does.
    QPolygonF line;
    const QRectF root = m_layout.rootRect();
    const int first = cells.first();
    if (!root.isEmpty() && first >= 0 && first < m_tree->cellCount() && m_structure->parentOf(first) == Root)
        line.append(toDevice(root, scale, offset).center());
    for (const int cell : cells) {
        const QRectF r = m_layout.cellRect(cell);
        if (!r.isEmpty())
            line.append(toDevice(r, scale, offset).center());
    }
    if (line.isEmpty())
        return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QColor color = palette.selection;
    color.setAlpha(170);
    const double width = std::clamp(m_layout.metrics().cellHeight * scale * 0.18, 2.0, 6.0);
    painter.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    painter.setBrush(Qt::NoBrush);
    painter.drawPolyline(line);
    painter.setBrush(color);
    painter.setPen(Qt::NoPen);
    for (const QPointF &at : std::as_const(line))
        painter.drawEllipse(at, width * 0.9, width * 0.9);
    painter.restore();
}

void RunStructureView::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    painter.fillRect(event->rect(), m_palette.background);
    if (!m_tree) {
        painter.setPen(m_palette.text);
        painter.drawText(rect(), Qt::AlignCenter, m_placeholder.isEmpty() ? tr("No tree open") : m_placeholder);
        return;
    }
    paintScene(painter, QRectF(event->rect()), m_scale, m_offset, m_palette);
    if (m_legendVisible) {
        const QSizeF size = legendSize(QFontMetricsF(painter.font()));
        paintLegend(painter, QRectF(QPointF(width() - size.width() - 8, 8), size), m_palette);
    }
}

void RunStructureView::paintFigure(QPainter &painter, const QRectF &target) const
{
    const TreePalette paper = TreePalette::light();
    painter.save();
    painter.setFont(TreeRenderer::figureFont(painter.font(), target));
    painter.fillRect(target, paper.background);
    const QSizeF legend = legendSize(QFontMetricsF(painter.font()));
    const QRectF area = target.adjusted(4, 4, -legend.width() - 12, -4);
    const QRectF scene = m_layout.sceneRect();
    if (!scene.isEmpty() && area.width() > 0 && area.height() > 0) {
        const double scale = std::min(area.width() / scene.width(), area.height() / scene.height());
        const QPointF offset = area.topLeft() + QPointF((area.width() - scene.width() * scale) / 2, 0);
        paintScene(painter, area, scale, offset, paper);
    }
    paintLegend(painter, QRectF(QPointF(target.right() - legend.width() - 4, target.top() + 4), legend), paper);
    painter.restore();
}

void RunStructureView::resizeEvent(QResizeEvent *)
{
    if (m_fitted)
        fitToView();
}

void RunStructureView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomAt(std::pow(1.25, steps), event->position());
    event->accept();
}

void RunStructureView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    m_dragging = true;
    m_moved = false;
    m_dragStart = event->position();
    m_offsetAtDragStart = m_offset;
}

void RunStructureView::mouseMoveEvent(QMouseEvent *event)
{
    if (!m_dragging)
        return;
    const QPointF delta = event->position() - m_dragStart;
    if (!m_moved && delta.manhattanLength() < 4)
        return;
    m_moved = true;
    m_offset = m_offsetAtDragStart + delta;
    m_fitted = false;
    update();
}

void RunStructureView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_dragging)
        return QWidget::mouseReleaseEvent(event);
    m_dragging = false;
    if (m_moved)
        return;
    const int cell = cellAtPos(event->position());
    if (cell >= 0) {
        selectCell(cell);
        emit cellActivated(cell);
    }
}

void RunStructureView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (cellAtPos(event->position()) < 0)
        fitToView();
}

void RunStructureView::keyPressEvent(QKeyEvent *event)
{
    switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
        zoomIn();
        break;
    case Qt::Key_Minus:
        zoomOut();
        break;
    case Qt::Key_F:
        fitToView();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

int RunStructureView::cellAtPos(const QPointF &pos) const
{
    // Tiny cells are hard to hit: take the nearest within a few pixels.
    const QPointF scenePoint = (pos - m_offset) / m_scale;
    int cell = m_layout.cellAt(scenePoint);
    if (cell >= 0)
        return cell;
    const double slack = 4.0 / m_scale;
    double nearest = slack * slack * 2;
    m_layout.forEachCellIn(QRectF(scenePoint - QPointF(slack, slack), QSizeF(2 * slack, 2 * slack)),
                           [&](int c, const QRectF &r) {
                               const QPointF d = r.center() - scenePoint;
                               const double d2 = d.x() * d.x() + d.y() * d.y();
                               if (d2 < nearest) {
                                   nearest = d2;
                                   cell = c;
                               }
                           });
    return cell;
}

QString RunStructureView::tooltipFor(int cell) const
{
    const Cell &c = m_tree->cells().at(cell);
    const RunStructure &s = *m_structure;
    QStringList lines{c.score ? tr("%1 · score %2").arg(c.id, scoreText(*c.score))
                              : tr("%1 · %2").arg(c.id, FailGlyphs::label(c.failClass))};
    const QJsonObject origin = c.payload.value(QLatin1String("origin")).toObject();
    if (const QString program = origin.value(QLatin1String("id")).toString(); !program.isEmpty())
        lines.append(tr("program %1").arg(program));
    const int p = s.parentOf(cell);
    lines.append(p >= 0 ? tr("parent %1").arg(m_tree->cells().at(p).id)
                        : p == Root ? tr("parent: the initial program") : tr("parent missing from the run (orphan)"));
    lines.append(tr("generation %1").arg(s.depthOf(cell)));
    if (s.islandOf(cell) != RunStructure::NoIsland)
        lines.append(tr("island %1").arg(s.islandOf(cell)));
    if (m_layout.isMigration(cell) && p >= 0)
        lines.append(tr("migrated from island %1").arg(s.islandOf(p)));
    return lines.join(QLatin1Char('\n'));
}

bool RunStructureView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip && m_tree) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int cell = cellAtPos(help->pos());
        if (cell >= 0)
            QToolTip::showText(help->globalPos(), tooltipFor(cell), this);
        else if (m_layout.rootRect().contains((help->pos() - m_offset) / m_scale))
            QToolTip::showText(help->globalPos(),
                               m_structure->rootScore() ? tr("initial program · score %1").arg(scoreText(*m_structure->rootScore()))
                                                        : tr("initial program"),
                               this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

} // namespace dreamrsi
