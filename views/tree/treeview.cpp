#include "treeview.h"


#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {
constexpr double MinScale = 0.02;
constexpr double MaxScale = 12.0;
constexpr double OverviewMax = 180.0;
} // namespace

TreeView::TreeView(QWidget *parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(200, 150);
}

void TreeView::setTree(std::shared_ptr<const DiscoveryTree> tree)
{
    m_renderer.setTree(std::move(tree));
    invalidateOverview();
    fitToView();
}

void TreeView::setTree(std::shared_ptr<const DiscoveryTree> tree, TreeCellStyles styles)
{
    m_renderer.setTree(std::move(tree), std::move(styles));
    invalidateOverview();
    fitToView();
}

void TreeView::setDarkPalette(bool dark)
{
    m_renderer.setPalette(dark ? TreePalette::dark() : TreePalette::light());
    invalidateOverview();
    update();
}

void TreeView::setOverlay(RevealOverlay overlay)
{
    m_renderer.setOverlay(std::move(overlay));
    update();
}

void TreeView::setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells)
{
    m_renderer.setPath(std::move(tree), std::move(cells));
    update();
}

void TreeView::setBranchMarks(QHash<int, QStringList> marks)
{
    const bool grows = m_renderer.branchMarks().isEmpty() != marks.isEmpty();
    m_renderer.setBranchMarks(std::move(marks));
    // The first mark adds a line under the deepest leaves: refit while fitted.
    if (grows) {
        invalidateOverview();
        if (m_fitted) {
            fitToView();
            return;
        }
    }
    update();
}

void TreeView::setRunningAttempts(QList<RunningAttempt> running)
{
    if (running.isEmpty() && m_renderer.running().isEmpty())
        return; // nothing ran, nothing runs: no repaint
    const bool grows = m_renderer.running().size() != running.size();
    m_renderer.setRunning(std::move(running));
    // Attempts that start or end can move the scene's edge: refit while fitted.
    if (grows)
        invalidateOverview();
    if (grows && m_fitted)
        fitToView();
    else
        update();
}

QString TreeView::placeholderText() const
{
    return m_placeholder.isEmpty() ? tr("No tree open.\nOpen a tree file or a project, or drop a tree file here.")
                                   : m_placeholder;
}

void TreeView::setPlaceholderText(const QString &text)
{
    if (text == m_placeholder)
        return;
    m_placeholder = text;
    if (!m_renderer.tree())
        update();
}

void TreeView::setLegendVisible(bool visible)
{
    m_legendVisible = visible;
    update();
}

bool TreeView::isFitted() const
{
    const QRectF scene = m_renderer.sceneRect();
    const QRectF shown(m_offset, scene.size() * m_scale);
    return QRectF(rect()).adjusted(-1, -1, 1, 1).contains(shown);
}

QPointF TreeView::toScene(const QPointF &device) const
{
    return (device - m_offset) / m_scale;
}

int TreeView::cellAtPos(const QPointF &pos) const
{
    return m_renderer.layout().cellAt(toScene(pos));
}

std::optional<RunningAttempt> TreeView::runningAttemptAt(const QPointF &pos) const
{
    return m_renderer.runningAt(toScene(pos));
}

std::optional<int> TreeView::branchAt(const QPointF &pos) const
{
    // A running attempt first: it may be of a branch the tree has no cell of yet.
    if (const std::optional<RunningAttempt> running = runningAttemptAt(pos))
        return running->branch;
    const TreeLayout &layout = m_renderer.layout();
    const std::shared_ptr<const DiscoveryTree> &tree = layout.tree();
    if (!tree)
        return std::nullopt;
    if (const int cell = layout.cellAt(toScene(pos)); cell >= 0)
        return tree->cells().at(cell).branch;
    const QPointF scene = toScene(pos);
    const auto [first, last] = layout.columnsIn(QRectF(scene, QSizeF(1e-6, 1e-6)));
    if (first != last || first < 0)
        return std::nullopt;
    // The column from its label above the bus down to its last row.
    QRectF column = layout.columnRect(first);
    column.setTop(column.top() - layout.metrics().headerHeight);
    if (!column.contains(scene))
        return std::nullopt;
    return tree->branches().at(first).id;
}

void TreeView::fitToView()
{
    QRectF area = QRectF(rect()).adjusted(4, 4, -4, -4);
    if (m_legendVisible && m_renderer.tree())
        area.setRight(area.right() - m_renderer.legendSize(QFontMetricsF(font())).width() - 8);
    const auto [scale, offset] = m_renderer.fitTransform(area);
    m_scale = std::clamp(scale, MinScale, MaxScale);
    m_offset = offset;
    if (m_scale != scale) // too small to fit: show from the top-left
        m_offset = area.topLeft();
    m_fitted = true;
    emit zoomChanged(m_scale);
    update();
}

void TreeView::zoomIn()
{
    zoomAt(1.25, QRectF(rect()).center());
}

void TreeView::zoomOut()
{
    zoomAt(1 / 1.25, QRectF(rect()).center());
}

void TreeView::zoomAt(double factor, const QPointF &anchor)
{
    const double next = std::clamp(m_scale * factor, MinScale, MaxScale);
    if (next == m_scale)
        return;
    const QPointF scenePoint = toScene(anchor);
    m_scale = next;
    m_offset = anchor - scenePoint * m_scale;
    m_fitted = false;
    clampOffset();
    emit zoomChanged(m_scale);
    update();
}

void TreeView::clampOffset()
{
    // Keep at least a quarter of the view covered by the scene.
    const QRectF scene = m_renderer.sceneRect();
    const QSizeF shown = scene.size() * m_scale;
    const double mx = width() * 0.75;
    const double my = height() * 0.75;
    m_offset.setX(std::clamp(m_offset.x(), std::min(-shown.width() + width() - mx, 0.0), std::max(mx, 0.0)));
    m_offset.setY(std::clamp(m_offset.y(), std::min(-shown.height() + height() - my, 0.0), std::max(my, 0.0)));
}

void TreeView::selectCell(int cellIndex)
{
    m_renderer.setSelected(cellIndex);
    update();
}

void TreeView::centerOn(int cellIndex)
{
    const QRectF r = m_renderer.layout().cellRect(cellIndex);
    if (r.isEmpty())
        return;
    if (m_scale * r.height() < 10) {
        m_scale = std::clamp(14.0 / r.height(), MinScale, MaxScale);
        emit zoomChanged(m_scale);
    }
    m_offset = QRectF(rect()).center() - r.center() * m_scale;
    m_fitted = false;
    update();
}

int TreeView::search(const QString &text)
{
    QSet<int> found;
    const auto t = m_renderer.tree();
    const QString needle = text.trimmed();
    if (t && !needle.isEmpty()) {
        const auto &cells = t->cells();
        for (int i = 0; i < cells.size(); ++i) {
            const Cell &c = cells.at(i);
            bool hit = c.id.contains(needle, Qt::CaseInsensitive);
            for (int k = 0; !hit && k < c.tags.size(); ++k)
                hit = c.tags.at(k).contains(needle, Qt::CaseInsensitive);
            if (hit)
                found.insert(i);
        }
    }
    int first = -1;
    for (int i : std::as_const(found))
        first = first < 0 ? i : std::min(first, i);
    m_renderer.setMatches(std::move(found));
    if (first >= 0 && !isFitted())
        centerOn(first);
    update();
    return int(m_renderer.matches().size());
}

bool TreeView::overviewVisible() const
{
    return m_renderer.tree() && !isFitted() && !overview().isNull();
}

QRectF TreeView::overviewRect() const
{
    const QImage &image = overview();
    const QSizeF size = QSizeF(image.size()) / image.devicePixelRatio();
    QRectF rect(width() - size.width() - 10, height() - size.height() - 10, size.width(), size.height());
    // Lower right, unless the legend (upper right, as paintEvent draws it)
    // reaches down to it, as in the short Live Round dock: then lower left.
    if (m_legendVisible) {
        const QSizeF ls = m_renderer.legendSize(QFontMetricsF(font()));
        if (QRectF(width() - ls.width() - 10, 10, ls.width(), ls.height()).intersects(rect.adjusted(-4, -4, 4, 4)))
            rect.moveLeft(10);
    }
    return rect;
}

void TreeView::invalidateOverview()
{
    m_overview = QImage();
    m_overviewStale = true;
}

const QImage &TreeView::overview() const
{
    if (m_overviewStale) {
        m_overviewStale = false;
        rebuildOverview();
    }
    return m_overview;
}

void TreeView::rebuildOverview() const
{
    m_overview = QImage();
    const QRectF scene = m_renderer.sceneRect();
    if (!m_renderer.tree() || scene.isEmpty())
        return;
    m_overviewScale = OverviewMax / std::max(scene.width(), scene.height());
    const QSizeF size = scene.size() * m_overviewScale;
    const qreal dpr = devicePixelRatioF();
    m_overview = QImage((size * dpr).toSize().expandedTo({1, 1}), QImage::Format_ARGB32_Premultiplied);
    m_overview.setDevicePixelRatio(dpr);
    m_overview.fill(m_renderer.palette().background);
    QPainter p(&m_overview);
    TreeRenderer plain = m_renderer;
    plain.setSelected(-1);
    plain.setMatches({});
    plain.paint(p, QRectF(QPointF(0, 0), size), m_overviewScale, QPointF(0, 0));
}

void TreeView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    const TreePalette &pal = m_renderer.palette();
    p.fillRect(event->rect(), pal.background);
    if (!m_renderer.tree()) {
        p.setPen(pal.text);
        p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, placeholderText());
        return;
    }
    m_renderer.paint(p, QRectF(event->rect()), m_scale, m_offset);
    if (m_legendVisible) {
        const QSizeF ls = m_renderer.legendSize(QFontMetricsF(font()));
        m_renderer.paintLegend(p, QRectF(width() - ls.width() - 10, 10, ls.width(), ls.height()));
    }
    if (overviewVisible()) {
        const QRectF o = overviewRect();
        p.setPen(QPen(pal.edge, 1));
        p.setBrush(pal.background);
        p.drawRect(o.adjusted(-2, -2, 2, 2));
        p.drawImage(o.topLeft(), overview());
        // The viewport, in overview coordinates.
        const QRectF view(toScene(QPointF(0, 0)) * m_overviewScale, QSizeF(size()) / m_scale * m_overviewScale);
        p.setPen(QPen(pal.selection, 1.5));
        p.setBrush(Qt::NoBrush);
        p.drawRect(view.translated(o.topLeft()).intersected(o.adjusted(-1, -1, 1, 1)));
    }
}

void TreeView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_fitted)
        fitToView();
}

void TreeView::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::ScreenChangeInternal)
        invalidateOverview();
}

void TreeView::wheelEvent(QWheelEvent *event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps != 0)
        zoomAt(std::pow(1.2, steps), event->position());
    event->accept();
}

void TreeView::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return QWidget::mousePressEvent(event);
    if (overviewVisible() && overviewRect().contains(event->position())) {
        const QPointF scenePoint = (event->position() - overviewRect().topLeft()) / m_overviewScale;
        m_offset = QRectF(rect()).center() - scenePoint * m_scale;
        update();
        return;
    }
    m_dragging = true;
    m_moved = false;
    m_dragStart = event->position();
    m_offsetAtDragStart = m_offset;
}

void TreeView::mouseMoveEvent(QMouseEvent *event)
{
    if (m_dragging) {
        const QPointF delta = event->position() - m_dragStart;
        if (!m_moved && delta.manhattanLength() < 4)
            return;
        m_moved = true;
        setCursor(Qt::ClosedHandCursor);
        m_offset = m_offsetAtDragStart + delta;
        m_fitted = false;
        clampOffset();
        update();
        return;
    }
    setCursor(cellAtPos(event->position()) >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void TreeView::mouseReleaseEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton || !m_dragging)
        return QWidget::mouseReleaseEvent(event);
    m_dragging = false;
    unsetCursor();
    if (!m_moved) {
        const int cell = cellAtPos(event->position());
        if (cell >= 0) {
            selectCell(cell);
            emit cellActivated(cell);
        }
    }
}

void TreeView::mouseDoubleClickEvent(QMouseEvent *event)
{
    if (cellAtPos(event->position()) < 0)
        fitToView();
}

void TreeView::keyPressEvent(QKeyEvent *event)
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
    case Qt::Key_0:
        fitToView();
        break;
    case Qt::Key_Left:
        m_offset.rx() += 40;
        m_fitted = false;
        update();
        break;
    case Qt::Key_Right:
        m_offset.rx() -= 40;
        m_fitted = false;
        update();
        break;
    case Qt::Key_Up:
        m_offset.ry() += 40;
        m_fitted = false;
        update();
        break;
    case Qt::Key_Down:
        m_offset.ry() -= 40;
        m_fitted = false;
        update();
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

bool TreeView::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int cell = cellAtPos(help->pos());
        const auto t = m_renderer.tree();
        if (const std::optional<RunningAttempt> running = cell < 0 ? runningAttemptAt(help->pos()) : std::nullopt) {
            QString text = QStringLiteral("<b>b%1a%2</b><br>").arg(running->branch).arg(running->attempt);
            RunningAttempt time = *running;
            time.stalled = false; // the time alone; stalled is said below
            text += tr("Running for %1").arg(TreeRenderer::runningLabel(time));
            if (running->stalled)
                text += QStringLiteral("<br><b>%1</b>").arg(tr("\u26A0 Stalled: right-click to kill it").toHtmlEscaped());
            QToolTip::showText(help->globalPos(), text, this);
            return true;
        }
        if (cell < 0 || !t) {
            QToolTip::hideText();
            event->ignore();
            return true;
        }
        const Cell &c = t->cells().at(cell);
        const CellStyle s = m_renderer.styleOf(cell);
        QString text = QStringLiteral("<b>%1</b><br>").arg(c.id.toHtmlEscaped());
        text += tr("Branch %1, attempt %2, seq %3").arg(c.branch).arg(c.attempt).arg(c.seq) + QStringLiteral("<br>");
        text += tr("Score: %1").arg(c.score ? QString::number(*c.score, 'g', 8) : tr("none")) + QStringLiteral("<br>");
        const bool imaginedFailure = s.imagined && c.failClass != QLatin1String(FailClass::Ok);
        text += tr("Outcome: %1").arg(imaginedFailure ? tr("failure, class not drawn by the world model")
                                                      : FailGlyphs::label(c.failClass).toHtmlEscaped());
        if (c.nTotal)
            text += QStringLiteral("<br>") + tr("Tests passed: %1/%2").arg(c.nValid.value_or(0)).arg(*c.nTotal);
        if (!c.tags.isEmpty())
            text += QStringLiteral("<br>") + tr("Tags: %1").arg(c.tags.join(QStringLiteral(", ")).toHtmlEscaped());
        if (c.error)
            text += QStringLiteral("<br><i>%1</i>").arg(c.error->left(200).toHtmlEscaped());
        if (cell == m_renderer.bestCell())
            text += QStringLiteral("<br><b>%1</b>").arg(tr("Best cell of the tree"));
        if (s.round > 0)
            text += QStringLiteral("<br>") + tr("Revealed in round %1").arg(s.round);
        QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

} // namespace dreamrsi
