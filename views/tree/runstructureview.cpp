#include "runstructureview.h"

#include "colormap.h"
#include "failglyph.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

constexpr double MinStructureScale = 1e-4;
constexpr double MaxStructureScale = 6.0;

QRectF structureToDevice(const QRectF &r, double scale, const QPointF &offset)
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
    // A run larger than the view at a readable scale scrolls (Fit no longer
    // shrinks it to a strip).
    m_hbar = new QScrollBar(Qt::Horizontal, this);
    m_vbar = new QScrollBar(Qt::Vertical, this);
    m_hbar->setObjectName(QStringLiteral("runStructureHorizontalBar"));
    m_vbar->setObjectName(QStringLiteral("runStructureVerticalBar"));
    m_hbar->hide();
    m_vbar->hide();
    connect(m_hbar, &QScrollBar::valueChanged, this, [this](int value) {
        if (m_syncing)
            return;
        m_offset.setX(sceneViewport().left() - value);
        m_fitted = false;
        update();
    });
    connect(m_vbar, &QScrollBar::valueChanged, this, [this](int value) {
        if (m_syncing)
            return;
        m_offset.setY(sceneViewport().top() - value);
        m_fitted = false;
        update();
    });
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
    if (m_fitted)
        fitToView();
    syncScrollBars();
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
    m_offset = sceneViewport().center() - r.center() * m_scale;
    m_fitted = false;
    syncScrollBars();
    update();
}

QString RunStructureView::generationLabel(int generation)
{
    return tr("gen %1").arg(generation);
}

QMarginsF RunStructureView::overlayMargins(const QFontMetricsF &fm) const
{
    if (!m_tree || !m_structure)
        return {};
    // Left: the widest generation label; top (Islands): the headers' two lines.
    const double left = fm.horizontalAdvance(generationLabel(m_structure->maxDepth())) + fm.height();
    const double top = m_mode == GenealogyLayout::Mode::Islands ? 2 * fm.height() + fm.height() / 2 : 0.0;
    return QMarginsF(left, top, 0, 0);
}

QRectF RunStructureView::viewportFor(bool hbar, bool vbar) const
{
    const QFontMetricsF fm(font());
    const QMarginsF margins = overlayMargins(fm);
    const double right = width() - (vbar ? m_vbar->sizeHint().width() : 0);
    QRectF r(QPointF(margins.left(), margins.top()), QPointF(right, height() - (hbar ? m_hbar->sizeHint().height() : 0)));
    if (m_legendVisible && m_tree)
        r.setRight(right - legendSize(fm).width() - 16);
    return r.width() > 0 && r.height() > 0 ? r : QRectF(rect());
}

QRectF RunStructureView::sceneViewport() const
{
    return viewportFor(!m_hbar->isHidden(), !m_vbar->isHidden());
}

QRectF RunStructureView::legendRect() const
{
    if (!m_legendVisible || !m_tree)
        return {};
    const QSizeF size = legendSize(QFontMetricsF(font()));
    const double right = width() - (m_vbar->isHidden() ? 0 : m_vbar->sizeHint().width()) - 8;
    return QRectF(QPointF(right - size.width(), 8), size);
}

void RunStructureView::syncScrollBars()
{
    if (m_syncing)
        return;
    m_syncing = true;
    const QRectF scene = m_layout.sceneRect();
    const QSizeF content = scene.size() * m_scale;
    bool hbar = false, vbar = false;
    if (m_tree && !scene.isEmpty()) {
        // Twice: one bar takes room from the other's direction.
        for (int pass = 0; pass < 2; ++pass) {
            const QRectF vp = viewportFor(hbar, vbar);
            hbar = content.width() > vp.width() + 0.5;
            vbar = content.height() > vp.height() + 0.5;
        }
    }
    const QRectF vp = viewportFor(hbar, vbar);
    const int h = m_hbar->sizeHint().height(), w = m_vbar->sizeHint().width();
    m_hbar->setGeometry(0, height() - h, width() - (vbar ? w : 0), h);
    m_vbar->setGeometry(width() - w, 0, w, height() - (hbar ? h : 0));
    // Position: how far the viewport's edge is into the scene.
    m_hbar->setRange(0, std::max(0, int(std::ceil(content.width() - vp.width()))));
    m_hbar->setPageStep(std::max(1, int(vp.width())));
    m_hbar->setSingleStep(std::max(1, int(vp.width() / 20)));
    m_hbar->setValue(int(std::lround(vp.left() - m_offset.x())));
    m_vbar->setRange(0, std::max(0, int(std::ceil(content.height() - vp.height()))));
    m_vbar->setPageStep(std::max(1, int(vp.height())));
    m_vbar->setSingleStep(std::max(1, int(vp.height() / 20)));
    m_vbar->setValue(int(std::lround(vp.top() - m_offset.y())));
    m_hbar->setVisible(hbar);
    m_vbar->setVisible(vbar);
    m_syncing = false;
}

void RunStructureView::fitToView()
{
    const QRectF scene = m_layout.sceneRect();
    if (scene.isEmpty() || width() <= 0 || height() <= 0) {
        m_scale = 1.0;
        m_offset = {};
        m_fitted = true;
        syncScrollBars();
        update();
        return;
    }
    // The whole run when its cells stay readable; else the readable scale.
    QRectF vp = viewportFor(false, false).adjusted(4, 4, -4, -4);
    const double whole = std::min(vp.width() / scene.width(), vp.height() / scene.height());
    const double readable = MinFitCellPx / m_layout.metrics().cellHeight;
    m_scale = std::clamp(std::max(whole, readable), MinStructureScale, MaxStructureScale);
    const QSizeF content = scene.size() * m_scale;
    if (whole < readable)
        vp = viewportFor(content.width() > vp.width(), content.height() > vp.height()).adjusted(4, 4, -4, -4);
    // From the top left, beside the generation labels and under the island
    // headers; a genealogy wider than the view from its initial program.
    double x = vp.left();
    const QRectF root = m_layout.rootRect();
    if (content.width() > vp.width() && m_mode == GenealogyLayout::Mode::Genealogy && !root.isEmpty())
        x = std::clamp(vp.center().x() - root.center().x() * m_scale, vp.right() - content.width(), vp.left());
    m_offset = QPointF(x, vp.top());
    m_fitted = true;
    syncScrollBars();
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
    const double scale = std::clamp(m_scale * factor, MinStructureScale, MaxStructureScale);
    const QPointF scenePoint = (anchor - m_offset) / m_scale;
    m_scale = scale;
    m_offset = anchor - scenePoint * m_scale;
    m_fitted = false;
    syncScrollBars();
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
    const QString best = island.best == RunStructure::Root ? tr("initial program") : m_tree->cells().at(island.best).id;
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
    // Island bands (their headers are overlays: paintOverlays).
    const QList<GenealogyLayout::Band> &bands = m_layout.bands();
    for (int b = 0; b < int(bands.size()); ++b) {
        const QRectF band = structureToDevice(bands.at(b).rect, scale, offset);
        if (band.intersects(exposed))
            painter.fillRect(band, b % 2 == 0 ? palette.background.darker(104) : palette.background.darker(108));
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
    if (!migrations.isEmpty()) {
        // Beneath the links and the cells, translucent where many cross the
        // bands, so that the lineages stay legible over them. Solid,
        // aliased and cosmetic: long antialiased strokes across the bands
        // cost milliseconds each.
        QColor color = palette.batch;
        color.setAlpha(migrations.size() > 40 ? 90 : 200);
        QPen pen(color, scale >= 0.5 ? 2 : 1);
        pen.setCosmetic(true);
        painter.setPen(pen);
        painter.drawLines(migrations);
    }
    painter.setPen(QPen(palette.edge, 0));
    painter.drawLines(links);

    // The initial program.
    if (!m_layout.rootRect().isEmpty()) {
        const QRectF root = structureToDevice(m_layout.rootRect(), scale, offset);
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
        const QRectF r = structureToDevice(rect, scale, offset);
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
        const QRectF r = structureToDevice(m_layout.cellRect(cell), scale, offset);
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
    if (!root.isEmpty() && first >= 0 && first < m_tree->cellCount() && m_structure->parentOf(first) == RunStructure::Root)
        line.append(structureToDevice(root, scale, offset).center());
    for (const int cell : cells) {
        const QRectF r = m_layout.cellRect(cell);
        if (!r.isEmpty())
            line.append(structureToDevice(r, scale, offset).center());
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
    const QRectF viewport = sceneViewport();
    painter.save();
    painter.setClipRect(viewport);
    paintScene(painter, QRectF(event->rect()).intersected(viewport), m_scale, m_offset, m_palette);
    painter.restore();
    paintOverlays(painter, viewport, m_scale, m_offset, m_palette);
    if (m_legendVisible)
        paintLegend(painter, legendRect(), m_palette);
}

void RunStructureView::paintOverlays(QPainter &painter, const QRectF &viewport, double scale, const QPointF &offset,
                                     const TreePalette &palette) const
{
    if (!m_tree || !m_structure)
        return;
    const QFontMetricsF fm(painter.font());
    const QMarginsF margins = overlayMargins(fm);
    const GenealogyLayout::Metrics &m = m_layout.metrics();
    painter.save();
    painter.setClipping(false);
    // Generation labels left of the rows, every row or every 2nd, 5th,
    // 10th… as their pitch allows, at the font's size whatever the zoom.
    const QRectF gutter(viewport.left() - margins.left(), viewport.top(), margins.left(), viewport.height());
    painter.fillRect(gutter, palette.background);
    const double pitch = (m.cellHeight + m.rowGap) * scale;
    int step = 1;
    for (const int s : {1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}) {
        step = s;
        if (s * pitch >= fm.height())
            break;
    }
    painter.setPen(palette.text);
    const double first = std::max(0.0, std::floor(((viewport.top() - offset.y()) / scale - m_layout.rowTop(0)) / (m.cellHeight + m.rowGap)));
    for (int d = int(first) / step * step; d <= m_structure->maxDepth(); d += step) {
        const double y = (m_layout.rowTop(d) + m.cellHeight / 2) * scale + offset.y();
        if (y > viewport.bottom())
            break;
        if (y < viewport.top())
            continue;
        painter.drawText(QRectF(gutter.left(), y - fm.height() / 2, gutter.width() - fm.height() / 2, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, generationLabel(d));
    }
    // Island headers above their bands: the band's share of the top strip,
    // the longest form of its title that fits, then its migrations.
    if (margins.top() > 0) {
        const QRectF strip(viewport.left(), viewport.top() - margins.top(), viewport.width(), margins.top());
        painter.fillRect(QRectF(gutter.left(), strip.top(), gutter.width() + strip.width(), strip.height()), palette.background);
        const QList<GenealogyLayout::Band> &bands = m_layout.bands();
        for (int b = 0; b < int(bands.size()); ++b) {
            const double left = std::max(bands.at(b).rect.left() * scale + offset.x(), strip.left());
            const double right = std::min(bands.at(b).rect.right() * scale + offset.x(), strip.right());
            if (right - left < fm.height())
                continue;
            const QRectF cell(left, strip.top() + 1, right - left, strip.height() - 2);
            painter.fillRect(cell, b % 2 == 0 ? palette.background.darker(104) : palette.background.darker(108));
            const RunStructure::Island &island = m_structure->islands().at(bands.at(b).island);
            const QString name = island.id == RunStructure::NoIsland ? tr("No island") : tr("Island %1").arg(island.id);
            const QStringList forms{islandTitle(bands.at(b).island),
                                    tr("%1 · %2").arg(name, tr("%n program(s)", nullptr, island.count)), name};
            const double room = cell.width() - fm.height() / 2;
            QString title = fm.elidedText(forms.last(), Qt::ElideRight, room);
            for (const QString &form : forms) {
                if (fm.horizontalAdvance(form) <= room) {
                    title = form;
                    break;
                }
            }
            const QRectF line1(cell.left() + fm.height() / 4, cell.top() + fm.height() / 4, room, fm.height());
            painter.drawText(line1, Qt::AlignLeft | Qt::AlignVCenter, title);
            QString migrations = islandMigrations(bands.at(b).island);
            if (fm.horizontalAdvance(migrations) > room)
                migrations = fm.elidedText(tr("%1 in, %2 out", "migrations").arg(island.migrantsIn).arg(island.migrantsOut),
                                           Qt::ElideRight, room);
            painter.drawText(line1.translated(0, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, migrations);
        }
    }
    painter.restore();
}

void RunStructureView::paintFigure(QPainter &painter, const QRectF &target) const
{
    const TreePalette paper = TreePalette::light();
    painter.save();
    painter.setFont(TreeRenderer::figureFont(painter.font(), target));
    painter.fillRect(target, paper.background);
    const QFontMetricsF fm(painter.font());
    const QSizeF legend = legendSize(fm);
    const QMarginsF margins = overlayMargins(fm);
    const QRectF scene = m_layout.sceneRect();
    // The legend beside the tree, or under it when that draws the tree
    // larger (a wide run: the legend's column took half its width).
    const QRectF beside = target.adjusted(4 + margins.left(), 4 + margins.top(), -legend.width() - 12, -4);
    const QRectF under = target.adjusted(4 + margins.left(), 4 + margins.top(), -4, -legend.height() - 12);
    const auto scaleIn = [&scene](const QRectF &a) {
        return scene.isEmpty() || a.width() <= 0 || a.height() <= 0 ? 0.0
                                                                      : std::min(a.width() / scene.width(), a.height() / scene.height());
    };
    const bool legendUnder = scaleIn(under) > scaleIn(beside);
    QRectF area = legendUnder ? under : beside;
    if (const double scale = scaleIn(area); scale > 0) {
        // The tree's own height, so that a legend under it sits right below.
        area.setHeight(std::min(area.height(), scene.height() * scale));
        const QPointF offset = area.topLeft() + QPointF((area.width() - scene.width() * scale) / 2, 0);
        painter.save();
        painter.setClipRect(area);
        paintScene(painter, area, scale, offset, paper);
        painter.restore();
        paintOverlays(painter, area, scale, offset, paper);
    }
    paintLegend(painter,
                QRectF(legendUnder ? QPointF(target.left() + 4, std::min(area.bottom() + 8, target.bottom() - legend.height() - 4))
                                   : QPointF(target.right() - legend.width() - 4, target.top() + 4),
                       legend),
                paper);
    painter.restore();
}

void RunStructureView::resizeEvent(QResizeEvent *)
{
    if (m_fitted)
        fitToView();
    else
        syncScrollBars();
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
    syncScrollBars();
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
    if (!sceneViewport().contains(pos))
        return -1; // the labels, headers and legend are no cells
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
                        : p == RunStructure::Root ? tr("parent: the initial program") : tr("parent missing from the run (orphan)"));
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
