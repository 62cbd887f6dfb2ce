#include "treerenderer.h"

#include "replay/worldmodel.h"

#include "colormap.h"
#include "figures/figureexport.h"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <tuple>

namespace dreamrsi {

TreePalette TreePalette::light()
{
    return {QColor(0xff, 0xff, 0xff), QColor(0x20, 0x20, 0x20), QColor(0xa0, 0xa0, 0xa0), QColor(0x50, 0x50, 0x50),
            QColor(0xd4, 0xd4, 0xd4), QColor(0x20, 0x20, 0x20), QColor(0xe4, 0x1a, 0x1c), QColor(0x00, 0x7a, 0xcc),
            QColor(0xc5, 0x1b, 0x7d), QColor(0xff, 0x7f, 0x00)};
}

TreePalette TreePalette::dark()
{
    return {QColor(0x1e, 0x1f, 0x22), QColor(0xe6, 0xe6, 0xe6), QColor(0x6a, 0x6a, 0x6a), QColor(0x12, 0x12, 0x12),
            QColor(0x55, 0x57, 0x5c), QColor(0x10, 0x10, 0x10), QColor(0xff, 0x45, 0x3a), QColor(0x4d, 0xb8, 0xff),
            QColor(0xf4, 0x8f, 0xb1), QColor(0xff, 0x9f, 0x1a)};
}

TreeRenderer::TreeRenderer()
    : m_palette(TreePalette::light())
{
}

void TreeRenderer::setTree(std::shared_ptr<const DiscoveryTree> tree)
{
    TreeCellStyles styles = tree ? TreeCellStyles::of(*tree) : TreeCellStyles();
    setTree(std::move(tree), std::move(styles));
}

void TreeRenderer::setTree(std::shared_ptr<const DiscoveryTree> tree, TreeCellStyles styles)
{
    m_layout = TreeLayout(std::move(tree));
    m_selected = -1;
    m_matches.clear();
    m_overlay = {};
    if (!m_layout.tree())
        styles = TreeCellStyles();
    m_hasScores = styles.hasScores;
    m_scoreMin = styles.scoreMin;
    m_scoreMax = styles.scoreMax;
    m_fills = std::move(styles.fills);
    m_fillRgb = std::move(styles.fillRgb);
    m_glyphs = std::move(styles.glyphs);
    m_failCounts = std::move(styles.failCounts);
    m_imagined = std::move(styles.imagined);
    m_imaginedCount = styles.imaginedCount;
    m_probe = std::move(styles.probe);
    m_probeCount = styles.probeCount;
    m_imaginedFailures = styles.imaginedFailures;
    m_best = styles.best;
    m_forkLinks = std::move(styles.forkLinks);
    m_orphans = std::move(styles.orphans);
}

QColor TreeRenderer::colorForScore(double score) const
{
    const double span = m_scoreMax - m_scoreMin;
    return Colormap::viridis(span > 0 ? (score - m_scoreMin) / span : 1.0);
}

CellStyle TreeRenderer::styleOf(int cellIndex) const
{
    CellStyle s;
    const auto &tree = m_layout.tree();
    if (!tree || cellIndex < 0 || cellIndex >= tree->cellCount())
        return s;
    const Cell &c = tree->cells().at(cellIndex);
    s.fill = c.score && std::isfinite(*c.score) ? m_fills.at(cellIndex) : m_palette.noScore;
    s.glyph = m_glyphs.at(cellIndex);
    s.best = cellIndex == m_best;
    s.selected = cellIndex == m_selected;
    s.match = m_matches.contains(cellIndex);
    s.imagined = m_imagined.value(cellIndex, false);
    s.probe = m_probe.value(cellIndex, false);
    if (m_overlay.isActive()) {
        const int r = m_overlay.revealRound.value(cellIndex, -1);
        const bool revealed = r >= 0 && r < m_overlay.roundsShown;
        s.dimmed = !revealed;
        s.round = revealed ? r + 1 : -1;
        s.inLatestBatch = revealed && r == m_overlay.roundsShown - 1;
    }
    return s;
}

QString TreeRenderer::steeringGlyphs(const QStringList &kinds)
{
    QString glyphs;
    for (const QString &kind : kinds)
        glyphs += kind == QLatin1String("close") ? QStringLiteral("\u2715")    // ✕
                  : kind == QLatin1String("refine") ? QStringLiteral("\u21E7") // ⇧
                  : kind == QLatin1String("kill")   ? QStringLiteral("\u2298") // ⊘, not a hint's ✎
                                                     : QStringLiteral("\u270E"); // ✎
    return glyphs;
}

QRectF TreeRenderer::runningRect(const RunningAttempt &a) const
{
    const auto &tree = m_layout.tree();
    int column = tree ? tree->branchIndex(a.branch) : -1;
    if (column < 0) {
        // A branch the tree has no cell of yet: the extra columns on the right, by branch.
        QList<int> fresh;
        for (const RunningAttempt &r : m_running) {
            if ((!tree || tree->branchIndex(r.branch) < 0) && !fresh.contains(r.branch))
                fresh.append(r.branch);
        }
        std::sort(fresh.begin(), fresh.end());
        column = m_layout.columnCount() + int(fresh.indexOf(a.branch));
    }
    return m_layout.slotRect(column, a.attempt);
}

std::optional<RunningAttempt> TreeRenderer::runningAt(const QPointF &scenePos) const
{
    // The ring of a stalled attempt lies a little outside its slot: a third of the gap between columns.
    const double ring = m_layout.metrics().columnGap / 3;
    for (const RunningAttempt &a : m_running) {
        if (runningRect(a).adjusted(-ring, -ring, ring, ring).contains(scenePos))
            return a;
    }
    return std::nullopt;
}

QString TreeRenderer::runningLabel(const RunningAttempt &a)
{
    const QString elapsed = QString::number(a.elapsedS, 'f', 0);
    const QString time = a.limitS && *a.limitS > 0 ? tr("%1/%2 s").arg(elapsed, QString::number(*a.limitS, 'f', 0))
                                                   : tr("%1 s").arg(elapsed);
    return a.stalled ? QStringLiteral("\u26A0 ") + time : time; // ⚠
}

QRectF TreeRenderer::sceneRect() const
{
    QRectF scene = m_layout.sceneRect();
    const double margin = m_layout.metrics().margin;
    for (const RunningAttempt &a : m_running)
        scene = scene.united(runningRect(a).adjusted(0, 0, margin, margin));
    if (!m_branchMarks.isEmpty()) // a mark under the deepest leaf (and its frames) needs a line of room
        scene.setBottom(scene.bottom() + m_layout.metrics().cellHeight);
    return scene;
}

std::pair<double, QPointF> TreeRenderer::fitTransform(const QRectF &area) const
{
    const QRectF scene = sceneRect();
    if (scene.isEmpty() || area.isEmpty())
        return {1.0, area.topLeft()};
    const double scale = std::min(area.width() / scene.width(), area.height() / scene.height());
    const QPointF offset(area.left() + (area.width() - scene.width() * scale) / 2,
                         area.top() + (area.height() - scene.height() * scale) / 2);
    return {scale, offset};
}

namespace {
QRectF toDevice(const QRectF &r, double scale, const QPointF &offset)
{
    return QRectF(r.x() * scale + offset.x(), r.y() * scale + offset.y(), r.width() * scale, r.height() * scale);
}

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

/// The nearest whole pixel, halves away from zero (std::lround's rule, inline).
int snap(double v)
{
    return v >= 0.0 ? int(v + 0.5) : -int(0.5 - v);
}

bool isDarkFill(const QColor &c)
{
    return 0.299 * c.redF() + 0.587 * c.greenF() + 0.114 * c.blueF() < 0.45;
}
} // namespace

double TreeRenderer::markWidth(double cellPx)
{
    return std::clamp(cellPx / 7.0, 1.5, 3.0);
}

double TreeRenderer::frameReach(double scale) const
{
    // The selection frame is the outermost: drawn 2.5 widths out with a pen of one.
    const auto &m = m_layout.metrics();
    return markWidth(std::min(m.cellWidth, m.cellHeight) * scale) * 3.0;
}

QRectF TreeRenderer::steeringMarkRect(int branchId, double scale, const QPointF &offset) const
{
    const auto &tree = m_layout.tree();
    const int column = tree ? tree->branchIndex(branchId) : -1;
    if (column < 0)
        return {};
    const auto &m = m_layout.metrics();
    int leaf = -1;
    for (int c : tree->branches().at(column).cells) {
        if (c >= 0)
            leaf = c;
    }
    const QRectF under = leaf >= 0 ? m_layout.cellRect(leaf) : m_layout.slotRect(column, 0);
    // Below the frames a leaf may carry (best, selection, latest batch), so
    // that they never cover the mark.
    const QRectF mark = toDevice(QRectF(under.left() - m.columnGap / 2, under.bottom(), under.width() + m.columnGap,
                                        m.cellHeight * 0.75),
                                 scale, offset);
    return mark.translated(0, frameReach(scale) + 1.0);
}

QImage TreeRenderer::cachedGlyph(FailGlyph glyph, const QSizeF &size, const QColor &color, qreal dpr) const
{
    const QSize px = (size * dpr).toSize();
    const QString key = QStringLiteral("%1/%2x%3/%4").arg(int(glyph)).arg(px.width()).arg(px.height()).arg(color.rgba());
    auto it = m_glyphCache.constFind(key);
    if (it != m_glyphCache.constEnd())
        return *it;
    if (m_glyphCache.size() > 256)
        m_glyphCache.clear();
    QImage image(px.expandedTo({1, 1}), QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(dpr);
    image.fill(Qt::transparent);
    {
        QPainter gp(&image);
        FailGlyphs::paint(gp, glyph, QRectF(QPointF(0, 0), size), color);
    }
    m_glyphCache.insert(key, image);
    return image;
}

void TreeRenderer::paint(QPainter &p, const QRectF &exposed, double scale, const QPointF &offset) const
{
    const auto &tree = m_layout.tree();
    if (!tree || scale <= 0)
        return;
    const QRectF sceneExposed((exposed.left() - offset.x()) / scale, (exposed.top() - offset.y()) / scale,
                              exposed.width() / scale, exposed.height() / scale);
    const auto &m = m_layout.metrics();
    const double cellPx = std::min(m.cellWidth, m.cellHeight) * scale;
    const bool detail = cellPx >= 7.0;
    const bool labels = cellPx >= 13.0;

    p.save();
    p.setRenderHint(QPainter::Antialiasing, false);

    // Edges: root to bus, the bus, and one line down each visible column.
    const auto [firstCol, lastCol] = m_layout.columnsIn(sceneExposed);
    const QRectF root = toDevice(m_layout.rootRect(), scale, offset);
    const double busY = m_layout.busY() * scale + offset.y();
    QPen edgePen(m_palette.edge, 1.0);
    edgePen.setCosmetic(true);
    p.setPen(edgePen);
    if (m_layout.columnCount() > 0) {
        const double x0 = m_layout.columnRect(0).center().x() * scale + offset.x();
        const double x1 = m_layout.columnRect(m_layout.columnCount() - 1).center().x() * scale + offset.x();
        p.drawLine(QPointF(root.center().x(), root.bottom()), QPointF(root.center().x(), busY));
        p.drawLine(QPointF(x0, busY), QPointF(x1, busY));
    }
    const auto &branches = tree->branches();
    for (int col = firstCol; col <= lastCol; ++col) {
        const QList<int> &cells = branches.at(col).cells;
        if (cells.isEmpty())
            continue;
        const QRectF last = toDevice(m_layout.cellRect(cells.last()), scale, offset);
        p.drawLine(QPointF(last.center().x(), busY), QPointF(last.center().x(), last.top()));
    }

    // Root.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(m_palette.background);
    p.setPen(QPen(m_palette.text, 1.0));
    p.drawRoundedRect(root, root.height() / 2, root.height() / 2);
    if (labels && root.intersects(exposed)) {
        p.drawText(root, Qt::AlignCenter, tr("root"));
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    // Branch labels above the bus.
    if (scale * m.cellWidth >= 18.0) {
        p.setPen(m_palette.text);
        QFont f = p.font();
        f.setPointSizeF(std::clamp(m.headerHeight * scale * 0.45, 6.0, 9.0));
        p.setFont(f);
        for (int col = firstCol; col <= lastCol; ++col) {
            const QRectF c = toDevice(m_layout.columnRect(col), scale, offset);
            const QRectF label(c.left() - 4, busY - m.headerHeight * scale, c.width() + 8, m.headerHeight * scale);
            p.drawText(label, Qt::AlignHCenter | Qt::AlignBottom, QStringLiteral("b%1").arg(branches.at(col).id));
        }
    }

    // Cells: pixel-snapped solid fills (border as an outer fill), glyphs from a cache on raster
    // devices (vector exports draw them as paths), marks collected for later.
    QFont small = p.font();
    small.setPointSizeF(std::clamp(m.cellHeight * scale * 0.38, 6.0, 9.0));
    p.setFont(small);
    const bool raster = p.paintEngine() && p.paintEngine()->type() == QPaintEngine::Raster;
    const qreal dpr = p.device() ? p.device()->devicePixelRatioF() : 1.0;
    const QColor border = m_palette.cellBorder;
    const QColor dimBorder = withAlpha(m_palette.cellBorder, 60);
    const bool borders = cellPx >= 10.0;
    QList<std::pair<QRectF, CellStyle>> marked;
    // Small cells without borders on a raster device (a fitted tree of
    // thousands): their fills are written into an image of the exposed part,
    // drawn at once. A painter call per cell cost ten times its few pixels.
    const bool direct = raster && !borders && p.worldTransform().type() <= QTransform::TxTranslate && p.opacity() >= 1.0;
    QList<int> visible;
    if (direct)
        paintSmallCells(p, exposed, sceneExposed, scale, offset, dpr, detail, &marked);
    else
        visible = m_layout.cellsIn(sceneExposed);
    for (int idx : std::as_const(visible)) {
        const CellStyle s = styleOf(idx);
        const QRectF r = toDevice(m_layout.cellRect(idx), scale, offset);
        // Snapped to whole pixels, solid fills take the raster engine's fast path.
        const QRect snapped(QPoint(snap(r.left()), snap(r.top())), QPoint(snap(r.right()) - 1, snap(r.bottom()) - 1));
        QColor fill = s.fill;
        if (s.dimmed)
            fill = withAlpha(fill, 45);
        if (s.imagined) {
            // Imagined: the background, hatched and outlined in the cell's
            // colour, so a drawn cell never passes for a revealed one.
            paintImaginedCell(p, snapped, fill, cellPx);
            if (s.best || s.selected || s.match || s.inLatestBatch)
                marked.append({r, s});
            if (s.glyph != FailGlyph::None && detail)
                FailGlyphs::paint(p, s.glyph, r.adjusted(r.width() / 4, r.height() / 4, -r.width() / 4, -r.height() / 4),
                                  m_palette.glyph);
            continue;
        }
        if (borders) {
            p.fillRect(snapped, s.dimmed ? dimBorder : border);
            p.fillRect(snapped.adjusted(1, 1, -1, -1), fill);
        } else {
            p.fillRect(snapped, fill);
        }
        if (s.best || s.selected || s.match || s.inLatestBatch)
            marked.append({r, s});
        if (s.probe && detail)
            paintProbeFlag(p, r, s.dimmed);
        if (s.glyph == FailGlyph::None)
            continue;
        const QColor glyphColor = isDarkFill(fill) && !s.dimmed ? QColor(Qt::white) : m_palette.glyph;
        if (!detail) {
            // Too small for a glyph: a dark centre still shows the failure.
            if (!s.dimmed && r.width() >= 2.5)
                p.fillRect(QRectF(r.center().x() - r.width() / 4, r.center().y() - r.height() / 4, r.width() / 2, r.height() / 2),
                           glyphColor);
            continue;
        }
        const QColor g = s.dimmed ? withAlpha(glyphColor, 80) : glyphColor;
        if (raster)
            p.drawImage(r.topLeft(), cachedGlyph(s.glyph, r.size(), g, dpr));
        else
            FailGlyphs::paint(p, s.glyph, r, g);
    }
    if (labels) {
        for (int idx : visible) {
            const CellStyle s = styleOf(idx);
            if (s.round <= 0)
                continue;
            const QRectF r = toDevice(m_layout.cellRect(idx), scale, offset);
            p.setPen(isDarkFill(s.fill) && !s.dimmed ? QColor(Qt::white) : m_palette.glyph);
            p.drawText(r.adjusted(3, 0, -2, 0), Qt::AlignLeft | Qt::AlignVCenter, QString::number(s.round));
        }
    }

    paintLiveMarks(p, scale, offset, labels);
    paintGenealogy(p, sceneExposed, scale, offset);
    paintPath(p, scale, offset);

    // Marks on top: latest batch, search matches, selection, best.
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    const double w = markWidth(cellPx);
    for (const auto &[r, s] : std::as_const(marked)) {
        if (s.inLatestBatch) {
            p.setPen(QPen(m_palette.batch, w, Qt::DashLine));
            p.drawRect(r.adjusted(-w, -w, w, w));
        }
        if (s.match) {
            p.setPen(QPen(m_palette.match, w));
            p.drawRect(r.adjusted(-w / 2, -w / 2, w / 2, w / 2));
        }
        if (s.best) {
            p.setPen(QPen(m_palette.best, w * 1.5));
            p.drawRect(r.adjusted(-w * 1.5, -w * 1.5, w * 1.5, w * 1.5));
        }
        if (s.selected) {
            p.setPen(QPen(m_palette.selection, w));
            p.drawRect(r.adjusted(-w * 2.5, -w * 2.5, w * 2.5, w * 2.5));
        }
    }
    p.restore();
}

void TreeRenderer::paintGenealogy(QPainter &p, const QRectF &sceneExposed, double scale, const QPointF &offset) const
{
    if (m_forkLinks.isEmpty() && m_orphans.isEmpty())
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setBrush(Qt::NoBrush);
    // A fork (its column is right of its real parent's, opened later): a
    // thin dashed curve from the parent's right edge to the fork's left edge.
    const QColor linkColor = withAlpha(m_palette.text, 170);
    QPen link(linkColor, 1.2, Qt::DashLine);
    link.setCosmetic(true);
    for (const auto &[fork, parent] : m_forkLinks) {
        const QRectF from = m_layout.cellRect(parent), to = m_layout.cellRect(fork);
        if (!from.united(to).intersects(sceneExposed))
            continue;
        const QRectF a = toDevice(from, scale, offset), b = toDevice(to, scale, offset);
        const QPointF start(a.right(), a.center().y()), end(b.left(), b.center().y());
        const double bend = std::max(4.0, (end.x() - start.x()) / 2.0);
        QPainterPath path(start);
        path.cubicTo(QPointF(start.x() + bend, start.y()), QPointF(end.x() - bend, end.y()), end);
        p.setPen(link);
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        // Where it comes from: a small dot on the parent's edge.
        p.setPen(Qt::NoPen);
        p.setBrush(linkColor);
        p.drawEllipse(start, 2.0, 2.0);
    }
    // An orphan: its parent is missing from the run; a broken ring sits on its link to the bus.
    QPen ring(m_palette.text, 1.2);
    ring.setCosmetic(true);
    const double busY = m_layout.busY() * scale + offset.y();
    for (const int orphan : m_orphans) {
        const QRectF r = m_layout.cellRect(orphan);
        if (!r.adjusted(0, -m_layout.metrics().rowGap * 4, 0, 0).intersects(sceneExposed))
            continue;
        const QRectF d = toDevice(r, scale, offset);
        const double radius = std::clamp(d.width() / 5.0, 2.5, 6.0);
        const QPointF centre(d.center().x(), std::max(busY + radius, d.top() - radius - 1.5));
        p.setPen(ring);
        p.setBrush(m_palette.background);
        p.drawEllipse(centre, radius, radius);
        p.drawLine(QPointF(centre.x() - radius * 0.7, centre.y() + radius * 0.7),
                   QPointF(centre.x() + radius * 0.7, centre.y() - radius * 0.7));
    }
    p.restore();
}

void TreeRenderer::paintSmallCells(QPainter &p, const QRectF &exposed, const QRectF &sceneExposed, double scale,
                                   const QPointF &offset, qreal dpr, bool detail,
                                   QList<std::pair<QRectF, CellStyle>> *marked) const
{
    const QRect area = exposed.toAlignedRect();
    if (area.isEmpty())
        return;
    // The image covers `area` (device-independent pixels) at the device's
    // pixel ratio; it starts transparent, so the edges drawn before show
    // between the cells, as they do between fills painted one by one.
    QImage layer((QSizeF(area.size()) * dpr).toSize().expandedTo({1, 1}), QImage::Format_ARGB32_Premultiplied);
    layer.fill(0);
    const int width = layer.width();
    const int height = layer.height();
    // A rectangle snapped as fillRect(QRect) snaps it: [round(left), round(right)).
    const auto fill = [&](const QRectF &r, QRgb premultiplied) {
        const int x0 = std::clamp(snap((snap(r.left()) - area.left()) * dpr), 0, width);
        const int x1 = std::clamp(snap((snap(r.right()) - area.left()) * dpr), 0, width);
        const int y0 = std::clamp(snap((snap(r.top()) - area.top()) * dpr), 0, height);
        const int y1 = std::clamp(snap((snap(r.bottom()) - area.top()) * dpr), 0, height);
        for (int y = y0; y < y1; ++y) {
            QRgb *line = reinterpret_cast<QRgb *>(layer.scanLine(y));
            std::fill(line + x0, line + x1, premultiplied);
        }
    };
    const auto &tree = m_layout.tree();
    const auto &cells = tree->cells();
    const int best = m_best;
    const QRgb noScore = m_palette.noScore.rgba();
    const bool overlay = m_overlay.isActive();
    struct Glyph
    {
        QRectF rect;
        FailGlyph glyph;
        QColor color;
    };
    QList<Glyph> glyphs; // painted over the image (cells large enough for one)
    m_layout.forEachCellIn(sceneExposed, [&](int idx, const QRectF &sceneRect) {
        const QRectF r = toDevice(sceneRect, scale, offset);
        const Cell &c = cells.at(idx);
        const bool scored = c.score && std::isfinite(*c.score);
        QRgb rgb = scored ? m_fillRgb.at(idx) : noScore;
        if (m_imagined.value(idx, false)) {
            // Too small to hatch: an imagined cell is a faint tint of its
            // colour over the background, never a solid fill.
            const QRgb bg = m_palette.background.rgba();
            rgb = qRgb((3 * qRed(bg) + qRed(rgb)) / 4, (3 * qGreen(bg) + qGreen(rgb)) / 4, (3 * qBlue(bg) + qBlue(rgb)) / 4);
        }
        bool dimmed = false;
        bool latest = false;
        if (overlay) {
            const int round = m_overlay.revealRound.value(idx, -1);
            const bool revealed = round >= 0 && round < m_overlay.roundsShown;
            dimmed = !revealed;
            latest = revealed && round == m_overlay.roundsShown - 1;
        }
        if (dimmed)
            rgb = (rgb & 0x00ffffffu) | (45u << 24);
        fill(r, qPremultiply(rgb));
        if (idx == best || idx == m_selected || latest || (!m_matches.isEmpty() && m_matches.contains(idx)))
            marked->append({r, styleOf(idx)});
        const FailGlyph glyph = m_glyphs.at(idx);
        if (glyph == FailGlyph::None)
            return;
        const QColor color = isDarkFill(QColor::fromRgba(rgb)) && !dimmed ? QColor(Qt::white) : m_palette.glyph;
        if (!detail) {
            // Too small for a glyph: a dark centre still shows the failure.
            if (!dimmed && r.width() >= 2.5)
                fill(QRectF(r.center().x() - r.width() / 4, r.center().y() - r.height() / 4, r.width() / 2, r.height() / 2),
                     qPremultiply(color.rgba()));
            return;
        }
        glyphs.append(Glyph{r, glyph, dimmed ? withAlpha(color, 80) : color});
    });
    layer.setDevicePixelRatio(dpr);
    p.drawImage(area.topLeft(), layer);
    for (const Glyph &g : std::as_const(glyphs))
        p.drawImage(g.rect.topLeft(), cachedGlyph(g.glyph, g.rect.size(), g.color, dpr));
}

void TreeRenderer::paintLiveMarks(QPainter &p, double scale, const QPointF &offset, bool labels) const
{
    const auto &tree = m_layout.tree();
    const auto &m = m_layout.metrics();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QFont f = p.font();
    f.setPointSizeF(std::clamp(m.cellHeight * scale * 0.45, 6.0, 11.0));
    p.setFont(f);

    // Running attempts: a dashed outline where the cell will be, filled as far
    // as its time has used its limit (red once past it), its time inside.
    for (const RunningAttempt &a : m_running) {
        const QRectF r = toDevice(runningRect(a), scale, offset);
        const double used = a.limitS && *a.limitS > 0 ? std::clamp(a.elapsedS / *a.limitS, 0.0, 1.0) : 0.0;
        const bool over = a.limitS && *a.limitS > 0 && a.elapsedS >= *a.limitS * 0.8;
        const QColor tint = over ? QColor(0xd6, 0x27, 0x28) : m_palette.batch;
        p.fillRect(r, withAlpha(m_palette.noScore, 90));
        if (used > 0)
            p.fillRect(QRectF(r.left(), r.top(), r.width() * used, r.height()), withAlpha(tint, 110));
        p.setPen(QPen(tint, std::clamp(scale, 1.0, 2.0), Qt::DashLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(r);
        if (a.stalled) {
            // Stalled (docs/online.md#is-it-alive): a solid red ring around the slot, to be killed.
            const double width = std::clamp(scale * 1.5, 2.0, 4.0);
            const double gap = std::max(width, m.columnGap * scale / 6);
            p.setPen(QPen(stalledColor(), width));
            p.drawRoundedRect(r.adjusted(-gap, -gap, gap, gap), width * 1.5, width * 1.5);
        }
        if (labels) {
            p.setPen(m_palette.text);
            p.drawText(r.adjusted(-m.columnGap * scale / 2, 0, m.columnGap * scale / 2, 0), Qt::AlignCenter,
                       runningLabel(a));
        }
    }

    // Steering marks under each steered branch's leaf (or its column's top
    // while it has no cell yet).
    if (tree && !m_branchMarks.isEmpty()) {
        p.setPen(m_palette.text);
        for (auto it = m_branchMarks.cbegin(); it != m_branchMarks.cend(); ++it) {
            const int column = tree->branchIndex(it.key());
            if (column < 0 || it.value().isEmpty())
                continue;
            const QRectF mark = steeringMarkRect(it.key(), scale, offset);
            if (labels) {
                p.drawText(mark, Qt::AlignHCenter | Qt::AlignTop, steeringGlyphs(it.value()));
            } else {
                // Too small for text: a dot in the text colour, a cross's red for a closed branch.
                const double d = std::max(2.0, m.cellWidth * scale * 0.3);
                p.setBrush(it.value().contains(QStringLiteral("close")) ? m_palette.best : m_palette.text);
                p.setPen(Qt::NoPen);
                p.drawEllipse(QPointF(mark.center().x(), mark.top() + d), d / 2, d / 2);
                p.setPen(m_palette.text);
            }
        }
    }
    p.restore();
}

namespace {
// Fixed parts of the legend, in multiples of the font height.
constexpr double LineFactor = 1.3;
constexpr double Pad = 6.0;

double defaultBarLength(const QFontMetricsF &fm)
{
    return std::max(120.0, fm.height() * 8);
}
} // namespace

void TreeRenderer::paintImaginedCell(QPainter &p, const QRectF &r, const QColor &color, double cellPx) const
{
    p.fillRect(r, m_palette.background);
    if (cellPx >= 4.0) {
        p.save();
        p.setRenderHint(QPainter::Antialiasing, false);
        p.fillRect(r.adjusted(1, 1, -1, -1), QBrush(color, Qt::BDiagPattern));
        p.restore();
    }
    QPen pen(color, cellPx >= 10.0 ? 2.0 : 1.0);
    pen.setJoinStyle(Qt::MiterJoin);
    p.setPen(pen);
    p.setBrush(Qt::NoBrush);
    const double inset = pen.widthF() / 2;
    p.drawRect(r.adjusted(inset, inset, -inset, -inset));
}

void TreeRenderer::paintProbeFlag(QPainter &p, const QRectF &r, bool dimmed) const
{
    // A triangle in the top-right corner, in the text colour on a light
    // rim: visible on every fill of the colour scale.
    const double side = std::max(4.0, std::min(r.width(), r.height()) * 0.45);
    QPainterPath flag;
    flag.moveTo(r.right() - side, r.top());
    flag.lineTo(r.right(), r.top());
    flag.lineTo(r.right(), r.top() + side);
    flag.closeSubpath();
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(withAlpha(m_palette.background, dimmed ? 80 : 230), 1.0));
    p.setBrush(withAlpha(m_palette.text, dimmed ? 80 : 255));
    p.drawPath(flag);
    p.restore();
}

TreeRenderer::LegendRows TreeRenderer::legendRows() const
{
    LegendRows rows;
    rows.labels.append(tr("Best cell"));
    rows.glyphs.append(FailGlyph::None);
    if (m_imaginedCount > 0) {
        rows.imaginedRow = int(rows.labels.size());
        rows.labels.append(tr("Imagined (%1)").arg(m_imaginedCount));
        rows.glyphs.append(FailGlyph::None);
    }
    if (m_probeCount > 0) {
        rows.probeRow = int(rows.labels.size());
        rows.labels.append(tr("Probe call (%1)").arg(m_probeCount));
        rows.glyphs.append(FailGlyph::None);
    }
    // Revealed cells per class; imagined failures apart, without a class
    // (the world model draws whether an attempt fails, not how).
    const QMap<QString, int> &counts = m_failCounts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) {
        rows.labels.append(QStringLiteral("%1 (%2)").arg(FailGlyphs::label(it.key())).arg(it.value()));
        rows.glyphs.append(FailGlyphs::forClass(it.key()));
    }
    if (m_imaginedFailures > 0) {
        rows.labels.append(tr("Imagined failure, class not drawn (%1)").arg(m_imaginedFailures));
        rows.glyphs.append(FailGlyph::Dot);
    }
    // An imported run's genealogy (docs/tree-format.md#imported-runs).
    if (!m_forkLinks.isEmpty()) {
        rows.forkRow = int(rows.labels.size());
        rows.labels.append(tr("Fork, linked to its real parent (%1)").arg(m_forkLinks.size()));
        rows.glyphs.append(FailGlyph::None);
    }
    if (!m_orphans.isEmpty()) {
        rows.orphanRow = int(rows.labels.size());
        rows.labels.append(tr("Orphan, parent missing (%1)").arg(m_orphans.size()));
        rows.glyphs.append(FailGlyph::None);
    }
    return rows;
}

QList<double> TreeRenderer::scaleTickValues(int intervals) const
{
    intervals = std::max(intervals, 1);
    QList<double> values;
    for (int i = 0; i <= intervals; ++i) {
        const double t = double(i) / intervals;
        values.append(m_hasScores ? m_scoreMin + t * (m_scoreMax - m_scoreMin) : t);
    }
    return values;
}

QStringList TreeRenderer::scaleTickLabels(int intervals) const
{
    return Colormap::tickLabels(scaleTickValues(intervals));
}

QSizeF TreeRenderer::legendSize(const QFontMetricsF &fm) const
{
    return tree() ? columnLegendSize(fm, defaultBarLength(fm)) : QSizeF();
}

void TreeRenderer::paintLegend(QPainter &p, const QRectF &area) const
{
    if (tree())
        paintColumnLegend(p, area, defaultBarLength(QFontMetricsF(p.font())));
}

QSizeF TreeRenderer::columnLegendSize(const QFontMetricsF &fm, double barLength) const
{
    const double line = fm.height() * LineFactor;
    const LegendRows rows = legendRows();
    double width = fm.horizontalAdvance(tr("Score"));
    for (const QString &label : rows.labels)
        width = std::max(width, fm.height() * 1.2 + Pad + fm.horizontalAdvance(label));
    // Bar, tick and the widest tick label.
    double tickWidth = 0;
    for (const QString &label : scaleTickLabels(4))
        tickWidth = std::max(tickWidth, fm.horizontalAdvance(label));
    width = std::max(width, 14 + Pad + tickWidth);
    return QSizeF(width + 2 * Pad, Pad + fm.height() * 1.5 + barLength + fm.height() / 2 + Pad + rows.labels.size() * line + Pad);
}

QSizeF TreeRenderer::bandLegendSize(const QFontMetricsF &fm, double width) const
{
    const double line = fm.height() * LineFactor;
    const LegendRows rows = legendRows();
    double entry = 0;
    for (const QString &label : rows.labels)
        entry = std::max(entry, fm.height() * 1.2 + Pad + fm.horizontalAdvance(label) + 2 * Pad);
    const int columns = std::clamp(int((width - 2 * Pad) / std::max(entry, 1.0)), 1, int(rows.labels.size()));
    const int lines = int((rows.labels.size() + columns - 1) / columns);
    // "Score" and the bar on one line, tick labels under it, then the entries.
    return QSizeF(width, Pad + fm.height() * 0.8 + 3 + fm.height() + Pad + lines * line + Pad);
}

void TreeRenderer::paintLegendEntry(QPainter &p, const QFontMetricsF &fm, const QPointF &topLeft, double width, int row,
                                    const LegendRows &rows) const
{
    const double line = fm.height() * LineFactor;
    const double x = topLeft.x();
    const double y = topLeft.y();
    const QRectF sw(x, y + (line - fm.height() * 0.9) / 2, fm.height() * 1.2, fm.height() * 0.9);
    if (row == rows.imaginedRow) {
        paintImaginedCell(p, sw, Colormap::viridis(0.6), 16.0);
    } else if (row == rows.probeRow) {
        p.fillRect(sw, Colormap::viridis(0.6));
        paintProbeFlag(p, sw, false);
    } else if (row == rows.forkRow) {
        // The dashed link as drawn between a fork and its real parent.
        QPen link(withAlpha(m_palette.text, 170), 1.2, Qt::DashLine);
        p.setPen(link);
        p.setBrush(Qt::NoBrush);
        QPainterPath path(QPointF(sw.left(), sw.bottom()));
        path.cubicTo(QPointF(sw.center().x(), sw.bottom()), QPointF(sw.center().x(), sw.top()), QPointF(sw.right(), sw.top()));
        p.drawPath(path);
    } else if (row == rows.orphanRow) {
        // The broken ring drawn above an orphan.
        const double radius = std::min(sw.width(), sw.height()) * 0.4;
        const QPointF centre = sw.center();
        p.setPen(QPen(m_palette.text, 1.2));
        p.setBrush(m_palette.background);
        p.drawEllipse(centre, radius, radius);
        p.drawLine(QPointF(centre.x() - radius * 0.7, centre.y() + radius * 0.7),
                   QPointF(centre.x() + radius * 0.7, centre.y() - radius * 0.7));
    } else if (row == 0) {
        p.fillRect(sw, Colormap::viridis(1.0));
        p.setPen(QPen(m_palette.best, 2.0));
        p.setBrush(Qt::NoBrush);
        p.drawRect(sw);
    } else {
        const FailGlyph glyph = rows.glyphs.at(row);
        p.fillRect(sw, glyph == FailGlyph::None ? Colormap::viridis(0.6) : m_palette.noScore);
        p.setPen(m_palette.cellBorder);
        p.setBrush(Qt::NoBrush);
        p.drawRect(sw);
        FailGlyphs::paint(p, glyph, sw, m_palette.glyph);
    }
    p.setPen(m_palette.text);
    p.drawText(QRectF(sw.right() + Pad, y, std::max(0.0, width - sw.width() - Pad), line), Qt::AlignLeft | Qt::AlignVCenter,
               rows.labels.at(row));
}

void TreeRenderer::paintColumnLegend(QPainter &p, const QRectF &area, double barLength) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF fm(p.font());
    const double line = fm.height() * LineFactor;
    p.setPen(withAlpha(m_palette.edge, 160));
    p.setBrush(withAlpha(m_palette.background, 230));
    p.drawRoundedRect(area, 4, 4);
    double y = area.top() + Pad;
    const double x = area.left() + Pad;
    p.setPen(m_palette.text);
    p.drawText(QRectF(x, y, area.width() - 2 * Pad, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("Score"));
    y += fm.height() * 1.5;
    const QRectF bar(x, y, 14, barLength);
    QLinearGradient g(bar.bottomLeft(), bar.topLeft());
    const QList<QColor> stops = Colormap::viridisTable(11);
    for (int i = 0; i < stops.size(); ++i)
        g.setColorAt(double(i) / (stops.size() - 1), stops.at(i));
    p.setPen(Qt::NoPen);
    p.fillRect(bar, g);
    p.setPen(m_palette.text);
    const int ticks = barLength >= fm.height() * 5 ? 4 : 2;
    const QStringList labels = scaleTickLabels(ticks);
    for (int i = 0; i <= ticks; ++i) {
        const double t = double(i) / ticks;
        const double ty = bar.bottom() - t * bar.height();
        p.drawLine(QPointF(bar.right(), ty), QPointF(bar.right() + 4, ty));
        p.drawText(QRectF(bar.right() + Pad, ty - fm.height() / 2, area.right() - bar.right() - Pad - 2, fm.height()),
                   Qt::AlignLeft | Qt::AlignVCenter, labels.at(i));
    }
    y = bar.bottom() + fm.height() / 2 + Pad;
    const LegendRows rows = legendRows();
    for (int row = 0; row < rows.labels.size(); ++row) {
        paintLegendEntry(p, fm, QPointF(x, y), area.right() - Pad - x, row, rows);
        y += line;
    }
    p.restore();
}

void TreeRenderer::paintBandLegend(QPainter &p, const QRectF &area, double barLength) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF fm(p.font());
    const double line = fm.height() * LineFactor;
    p.setPen(withAlpha(m_palette.edge, 160));
    p.setBrush(withAlpha(m_palette.background, 230));
    p.drawRoundedRect(area, 4, 4);
    const double x = area.left() + Pad;
    double y = area.top() + Pad;
    p.setPen(m_palette.text);
    const double scoreWidth = fm.horizontalAdvance(tr("Score"));
    p.drawText(QRectF(x, y - fm.height() * 0.1, scoreWidth, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, tr("Score"));
    const QRectF bar(x + scoreWidth + Pad, y, barLength, fm.height() * 0.8);
    QLinearGradient g(bar.topLeft(), bar.topRight());
    const QList<QColor> stops = Colormap::viridisTable(11);
    for (int i = 0; i < stops.size(); ++i)
        g.setColorAt(double(i) / (stops.size() - 1), stops.at(i));
    p.setPen(Qt::NoPen);
    p.fillRect(bar, g);
    p.setPen(m_palette.text);
    // Four intervals when their labels fit side by side under the bar, else two.
    double widest = 0;
    for (const QString &label : scaleTickLabels(4))
        widest = std::max(widest, fm.horizontalAdvance(label));
    const int ticks = barLength >= std::max(fm.averageCharWidth() * 30, 4 * (widest + fm.averageCharWidth() * 2)) ? 4 : 2;
    const QStringList labels = scaleTickLabels(ticks);
    for (int i = 0; i <= ticks; ++i) {
        const double t = double(i) / ticks;
        const double tx = bar.left() + t * bar.width();
        const QString &text = labels.at(i);
        const double w = fm.horizontalAdvance(text);
        // End labels stay under the bar; the others are centred on their tick.
        const double left = i == 0 ? tx : i == ticks ? tx - w : tx - w / 2;
        p.drawLine(QPointF(tx, bar.bottom()), QPointF(tx, bar.bottom() + 3));
        p.drawText(QRectF(left, bar.bottom() + 3, w + 1, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, text);
    }
    y = bar.bottom() + 3 + fm.height() + Pad;
    const LegendRows rows = legendRows();
    double entry = 0;
    for (const QString &label : rows.labels)
        entry = std::max(entry, fm.height() * 1.2 + Pad + fm.horizontalAdvance(label) + 2 * Pad);
    const int columns = std::clamp(int((area.width() - 2 * Pad) / std::max(entry, 1.0)), 1, int(rows.labels.size()));
    for (int row = 0; row < rows.labels.size(); ++row) {
        const QPointF at(x + (row % columns) * entry, y + (row / columns) * line);
        paintLegendEntry(p, fm, at, entry - Pad, row, rows);
    }
    p.restore();
}

QFont TreeRenderer::figureFont(const QFont &base, const QRectF &target)
{
    QFont f = base;
    const QSizeF mm = target.size() / FigureExport::logicalDpi() * 25.4;
    f.setPointSizeF(mm.width() < 120 || mm.height() < 70 ? 7.0 : 8.0);
    return f;
}

TreeFigureGeometry TreeRenderer::figureGeometry(const QFontMetricsF &fm, const QRectF &target, bool withLegend) const
{
    constexpr double Margin = 6.0;
    const QRectF inner = target.adjusted(Margin, Margin, -Margin, -Margin);
    auto fitted = [this](TreeFigureGeometry g, const QRectF &area) {
        g.treeArea = area;
        std::tie(g.scale, g.offset) = fitTransform(area);
        const QRectF scene = sceneRect();
        g.treeRect = QRectF(scene.x() * g.scale + g.offset.x(), scene.y() * g.scale + g.offset.y(), scene.width() * g.scale,
                            scene.height() * g.scale);
        return g;
    };
    if (!withLegend || !tree())
        return fitted({}, inner);

    // Column on the right: the colour bar takes the height left, down to three lines.
    const double columnBar = std::clamp(inner.height() - columnLegendSize(fm, 0).height(), 0.0, defaultBarLength(fm));
    const bool columnFits = columnBar >= fm.height() * 3;
    TreeFigureGeometry right;
    if (columnFits) {
        const QSizeF column = columnLegendSize(fm, columnBar);
        right.legend = QRectF(inner.right() - column.width(), inner.top(), column.width(), column.height());
        right.barLength = columnBar;
        right = fitted(right, QRectF(inner.left(), inner.top(), inner.width() - column.width() - Margin, inner.height()));
    }
    // Band below, as wide as the figure.
    const QSizeF band = bandLegendSize(fm, inner.width());
    const bool bandFits = band.height() <= inner.height() / 2;
    TreeFigureGeometry below;
    below.legend = QRectF(inner.left(), inner.bottom() - band.height(), inner.width(), band.height());
    below.legendBelow = true;
    below.barLength = std::clamp(inner.width() - 3 * Pad - fm.horizontalAdvance(tr("Score")) - fm.averageCharWidth() * 3,
                                 fm.height() * 3, fm.averageCharWidth() * 60);
    below = fitted(below, QRectF(inner.left(), inner.top(), inner.width(), std::max(0.0, inner.height() - band.height() - Margin)));

    if (!columnFits)
        return below;
    if (!bandFits)
        return right;
    return below.scale > right.scale * 1.05 ? below : right;
}

void TreeRenderer::paintFigure(QPainter &p, const QRectF &target, bool withLegend) const
{
    p.save();
    p.fillRect(target, m_palette.background);
    p.setFont(figureFont(p.font(), target));
    const TreeFigureGeometry g = figureGeometry(QFontMetricsF(p.font()), target, withLegend);
    paint(p, g.treeArea, g.scale, g.offset);
    if (!g.legend.isEmpty()) {
        if (g.legendBelow)
            paintBandLegend(p, g.legend, g.barLength);
        else
            paintColumnLegend(p, g.legend, g.barLength);
    }
    p.restore();
}

void TreeRenderer::paintPath(QPainter &p, double scale, const QPointF &offset) const
{
    const QList<int> cells = path();
    if (cells.isEmpty())
        return;
    // From the initial program (unless the path starts at an orphan) through each step's cell.
    QPolygonF line;
    const Cell &first = tree()->cells().at(cells.first());
    if (!first.payload.value(QLatin1String("orphan")).toBool())
        line.append(toDevice(m_layout.rootRect(), scale, offset).center());
    for (const int cell : cells) {
        if (cell >= 0 && cell < tree()->cellCount())
            line.append(toDevice(m_layout.cellRect(cell), scale, offset).center());
    }
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QColor color = m_palette.selection;
    color.setAlpha(170);
    const double width = std::clamp(m_layout.cellRect(cells.last()).height() * scale * 0.18, 2.0, 6.0);
    p.setPen(QPen(color, width, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    p.drawPolyline(line);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    for (const QPointF &at : std::as_const(line))
        p.drawEllipse(at, width * 0.9, width * 0.9);
    p.restore();
}

} // namespace dreamrsi
