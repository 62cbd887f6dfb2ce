#include "behaviourgridview.h"

#include "colormap.h"
#include "treerenderer.h"

#include <QComboBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QSlider>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>

#include <cmath>

namespace dreamrsi {

namespace {

QString shortNumber(double v)
{
    return QString::number(v, 'g', 3);
}

/// Whether metric `name` tells the tree's cells apart on an axis: not the
/// cells' score under another name (OpenEvolve's combined_score), and not
/// one value for every cell.
bool tellsCellsApart(const DiscoveryTree &tree, const BehaviourGrid::MetricColumns &metrics, const QString &name)
{
    const QList<double> *column = metrics.column(name);
    if (!column)
        return false;
    std::optional<double> first;
    bool varies = false, isScore = true;
    int compared = 0;
    for (qsizetype c = 0; c < column->size() && c < tree.cellCount(); ++c) {
        const double v = column->at(c);
        if (!std::isfinite(v))
            continue;
        varies = varies || (first && v != *first);
        if (!first)
            first = v;
        const std::optional<double> score = tree.cells().at(c).score;
        if (score && std::isfinite(*score)) {
            ++compared;
            isScore = isScore && std::abs(v - *score) <= 1e-12 * std::max(1.0, std::abs(*score));
        }
    }
    return varies && !(isScore && compared > 0);
}

/// Where the grid's parts go inside a target rectangle.
struct GridGeometry
{
    QRectF plot;     ///< the bins
    QRectF colorBar;
    double binW = 0;
    double binH = 0;
};

GridGeometry geometryFor(const BehaviourGrid &grid, const QRectF &target, const QFontMetricsF &fm)
{
    GridGeometry g;
    const double line = fm.height();
    const double left = line * 1.6 + fm.horizontalAdvance(QStringLiteral("-0.000e+00"));
    const double bottom = line * 3.0;
    const double top = line * 1.8;
    const double right = line * 2.5 + std::max(fm.horizontalAdvance(QStringLiteral("0.000e+00")),
                                                fm.horizontalAdvance(BehaviourGridView::tr("best score")));
    const QRectF room = target.adjusted(left, top, -right, -bottom);
    // Square bins where the room allows.
    const double side = std::max(1.0, std::min(room.width() / grid.x().bins, room.height() / grid.y().bins));
    g.binW = side;
    g.binH = side;
    g.plot = QRectF(room.left(), room.top(), side * grid.x().bins, side * grid.y().bins);
    g.colorBar = QRectF(g.plot.right() + line, g.plot.top(), line * 0.9, g.plot.height());
    return g;
}

QRectF binRect(const GridGeometry &g, const BehaviourGrid &grid, int i, int j)
{
    return QRectF(g.plot.left() + i * g.binW, g.plot.top() + (grid.y().bins - 1 - j) * g.binH, g.binW, g.binH);
}

QColor colorOf(const BehaviourGrid &grid, double score)
{
    const double lo = grid.scoreMin().value_or(0.0), hi = grid.scoreMax().value_or(1.0);
    return Colormap::viridis(hi > lo ? (score - lo) / (hi - lo) : 1.0);
}

void paintGrid(const BehaviourGridView &view, const BehaviourGrid &grid, QPainter &p, const QRectF &target,
               const TreePalette &palette)
{
    const QFontMetricsF fm(p.font());
    const GridGeometry g = geometryFor(grid, target, fm);
    p.save();
    p.fillRect(target, palette.background);
    const QColor empty = palette.background.darker(106);
    const bool counts = g.binW >= fm.horizontalAdvance(QStringLiteral("999")) + 4 && g.binH >= fm.height();
    for (int j = 0; j < grid.y().bins; ++j) {
        for (int i = 0; i < grid.x().bins; ++i) {
            const BehaviourGrid::Bin &b = grid.bin(i, j);
            const QRectF r = binRect(g, grid, i, j);
            const QColor fill = b.cells.isEmpty() ? empty : b.bestScore ? colorOf(grid, *b.bestScore) : palette.noScore;
            p.fillRect(r, fill);
            if (counts && !b.cells.isEmpty()) {
                p.setPen(fill.lightnessF() > 0.55 ? QColor(0x20, 0x20, 0x20) : QColor(0xf5, 0xf5, 0xf5));
                p.drawText(r, Qt::AlignCenter, QString::number(b.cells.size()));
            }
        }
    }
    // Bin borders and the frame.
    p.setPen(QPen(palette.background, 0));
    for (int i = 1; i < grid.x().bins; ++i)
        p.drawLine(QPointF(g.plot.left() + i * g.binW, g.plot.top()), QPointF(g.plot.left() + i * g.binW, g.plot.bottom()));
    for (int j = 1; j < grid.y().bins; ++j)
        p.drawLine(QPointF(g.plot.left(), g.plot.top() + j * g.binH), QPointF(g.plot.right(), g.plot.top() + j * g.binH));
    p.setPen(QPen(palette.text, 0));
    p.setBrush(Qt::NoBrush);
    p.drawRect(g.plot);

    // Ticks at bin edges, thinned to about ten labels per axis.
    const double line = fm.height();
    // A metric every cell has the same value of gets one label, said so
    // (not the same number at every edge).
    const int xStep = std::max(1, (grid.x().bins + 9) / 10), yStep = std::max(1, (grid.y().bins + 9) / 10);
    if (!(grid.x().hi > grid.x().lo)) {
        p.drawText(QRectF(g.plot.left(), g.plot.bottom() + 3, g.plot.width(), line), Qt::AlignHCenter | Qt::AlignTop,
                   BehaviourGridView::tr("%1 (the same for every cell)").arg(shortNumber(grid.x().lo)));
    } else {
        for (int i = 0; i <= grid.x().bins; i += xStep) {
            const double x = g.plot.left() + i * g.binW;
            p.drawLine(QPointF(x, g.plot.bottom()), QPointF(x, g.plot.bottom() + 3));
            p.drawText(QRectF(x - 40, g.plot.bottom() + 3, 80, line), Qt::AlignHCenter | Qt::AlignTop,
                       shortNumber(grid.x().edge(i)));
        }
    }
    if (!(grid.y().hi > grid.y().lo)) {
        p.save();
        p.translate(g.plot.left() - 5 - line, g.plot.center().y());
        p.rotate(-90);
        p.drawText(QRectF(-g.plot.height() / 2, 0, g.plot.height(), line), Qt::AlignHCenter | Qt::AlignTop,
                   BehaviourGridView::tr("%1 (the same for every cell)").arg(shortNumber(grid.y().lo)));
        p.restore();
    } else {
        for (int j = 0; j <= grid.y().bins; j += yStep) {
            const double y = g.plot.bottom() - j * g.binH;
            p.drawLine(QPointF(g.plot.left() - 3, y), QPointF(g.plot.left(), y));
            // The lowest sits just above the corner, clear of the x axis's first label.
            const double labelTop = j == 0 ? y - line : y - line / 2;
            p.drawText(QRectF(target.left(), labelTop, g.plot.left() - target.left() - 5, line),
                       Qt::AlignRight | (j == 0 ? Qt::AlignBottom : Qt::AlignVCenter), shortNumber(grid.y().edge(j)));
        }
    }
    p.drawText(QRectF(g.plot.left(), g.plot.bottom() + line * 1.4, g.plot.width(), line), Qt::AlignHCenter | Qt::AlignTop,
               grid.x().metric);
    p.save();
    p.translate(target.left() + line * 0.1, g.plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-g.plot.height() / 2, 0, g.plot.height(), line), Qt::AlignHCenter | Qt::AlignTop, grid.y().metric);
    p.restore();
    p.drawText(QRectF(g.plot.left(), target.top(), target.width(), line * 1.5), Qt::AlignLeft | Qt::AlignVCenter,
               BehaviourGridView::tr("%1 of %2 cells · cells per bin, coloured by the bin's best score")
                   .arg(grid.filledCount())
                   .arg(grid.placedCount()));

    // The colour scale of best scores.
    const int steps = 48;
    for (int k = 0; k < steps; ++k) {
        const QRectF r(g.colorBar.left(), g.colorBar.bottom() - g.colorBar.height() * (k + 1) / steps, g.colorBar.width(),
                       g.colorBar.height() / steps + 0.5);
        p.fillRect(r, Colormap::viridis(double(k) / (steps - 1)));
    }
    p.drawRect(g.colorBar);
    // The ends' values beside the bar, inside its height; the title above
    // it, clear of the top value (they collided).
    if (grid.scoreMin()) {
        p.drawText(QRectF(g.colorBar.right() + 3, g.colorBar.top(), 200, line), Qt::AlignLeft | Qt::AlignTop,
                   shortNumber(*grid.scoreMax()));
        p.drawText(QRectF(g.colorBar.right() + 3, g.colorBar.bottom() - line, 200, line), Qt::AlignLeft | Qt::AlignBottom,
                   shortNumber(*grid.scoreMin()));
    }
    p.drawText(QRectF(g.colorBar.left(), g.colorBar.top() - line * 1.3, 200, line), Qt::AlignLeft | Qt::AlignBottom,
               BehaviourGridView::tr("best score"));
    p.restore();
    Q_UNUSED(view);
}

} // namespace

/// Draws the grid and answers the pointer; the view around it holds the controls.
class BehaviourGridCanvas final : public QWidget
{
public:
    explicit BehaviourGridCanvas(BehaviourGridView *view)
        : QWidget(view)
        , m_view(view)
    {
        setMouseTracking(true);
        setMinimumSize(240, 200);
    }

    /// Bin (i, j) under `pos`, or (-1, -1).
    std::pair<int, int> binAt(const QPointF &pos) const
    {
        const auto &grid = m_view->grid();
        if (!grid)
            return {-1, -1};
        const GridGeometry g = geometryFor(*grid, rect(), QFontMetricsF(font()));
        if (!g.plot.contains(pos))
            return {-1, -1};
        const int i = std::min(grid->x().bins - 1, int((pos.x() - g.plot.left()) / g.binW));
        const int j = std::min(grid->y().bins - 1, int((g.plot.bottom() - pos.y()) / g.binH));
        return {i, j};
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        const TreePalette palette = m_view->m_dark ? TreePalette::dark() : TreePalette::light();
        if (!m_view->grid()) {
            p.fillRect(rect(), palette.background);
            p.setPen(palette.text);
            p.drawText(rect().adjusted(12, 12, -12, -12), Qt::AlignCenter | Qt::TextWordWrap, m_view->problem());
            return;
        }
        paintGrid(*m_view, *m_view->grid(), p, rect(), palette);
    }

    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            const auto [i, j] = binAt(help->pos());
            if (i >= 0)
                QToolTip::showText(help->globalPos(), m_view->binText(i, j), this);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(event);
    }

    void mouseReleaseEvent(QMouseEvent *event) override
    {
        const auto [i, j] = binAt(event->position());
        if (i >= 0 && event->button() == Qt::LeftButton) {
            const int best = m_view->grid()->bin(i, j).best;
            const QList<int> &cells = m_view->grid()->bin(i, j).cells;
            if (best >= 0 || !cells.isEmpty())
                emit m_view->cellActivated(best >= 0 ? best : cells.first());
        }
    }

private:
    BehaviourGridView *m_view;
};

BehaviourGridView::BehaviourGridView(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *row = new QHBoxLayout;
    m_xMetric = new QComboBox;
    m_xMetric->setObjectName(QStringLiteral("gridXMetric"));
    m_yMetric = new QComboBox;
    m_yMetric->setObjectName(QStringLiteral("gridYMetric"));
    for (QComboBox *box : {m_xMetric, m_yMetric}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
        box->setToolTip(tr("A numeric metric the cells carry (their payload's metrics)"));
    }
    m_xBins = new QSpinBox;
    m_xBins->setObjectName(QStringLiteral("gridXBins"));
    m_yBins = new QSpinBox;
    m_yBins->setObjectName(QStringLiteral("gridYBins"));
    for (QSpinBox *box : {m_xBins, m_yBins}) {
        box->setRange(1, 100);
        box->setValue(10);
        box->setToolTip(tr("Bins along this axis"));
    }
    m_order = new QComboBox;
    m_order->setObjectName(QStringLiteral("gridOrder"));
    m_order->addItem(tr("Creation order"), int(BehaviourGrid::Order::Creation));
    m_order->addItem(tr("Generation"), int(BehaviourGrid::Order::Generation));
    m_order->setToolTip(tr("What the slider runs over"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("gridSlider"));
    m_slider->setToolTip(tr("Fill the grid with the cells made up to here"));
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("gridStatus"));
    row->addWidget(new QLabel(tr("x:")));
    row->addWidget(m_xMetric);
    row->addWidget(m_xBins);
    row->addSpacing(8);
    row->addWidget(new QLabel(tr("y:")));
    row->addWidget(m_yMetric);
    row->addWidget(m_yBins);
    row->addSpacing(8);
    row->addWidget(m_order);
    row->addWidget(m_slider, 1);
    row->addWidget(m_status);
    layout->addLayout(row);
    m_canvas = new BehaviourGridCanvas(this);
    layout->addWidget(m_canvas, 1);

    for (QComboBox *box : {m_xMetric, m_yMetric, m_order})
        connect(box, &QComboBox::currentIndexChanged, this, &BehaviourGridView::rebuild);
    for (QSpinBox *box : {m_xBins, m_yBins})
        connect(box, &QSpinBox::valueChanged, this, &BehaviourGridView::rebuild);
    connect(m_slider, &QSlider::valueChanged, this, &BehaviourGridView::refill);
    rebuild();
}

BehaviourGridView::Prepared BehaviourGridView::prepare(std::shared_ptr<const DiscoveryTree> tree,
                                                      std::shared_ptr<const RunStructure> structure)
{
    Prepared p;
    p.tree = std::move(tree);
    if (!p.tree)
        return p;
    p.structure = structure ? std::move(structure) : std::make_shared<const RunStructure>(RunStructure::of(*p.tree));
    p.metrics = BehaviourGrid::MetricColumns::of(*p.tree);
    return p;
}

void BehaviourGridView::setTree(std::shared_ptr<const DiscoveryTree> tree)
{
    setPrepared(prepare(std::move(tree)));
}

void BehaviourGridView::setPrepared(Prepared prepared)
{
    m_tree = std::move(prepared.tree);
    m_structure = std::move(prepared.structure);
    m_metrics = std::move(prepared.metrics);
    const QStringList metrics = m_metrics.names;
    const QString x = m_xMetric->currentText(), y = m_yMetric->currentText();
    {
        const QSignalBlocker bx(m_xMetric), by(m_yMetric);
        m_xMetric->clear();
        m_yMetric->clear();
        m_xMetric->addItems(metrics);
        m_yMetric->addItems(metrics);
        // Keep the metrics chosen before when this tree has them; else the
        // first two that tell cells apart: not the score itself (the colour
        // says it) and not a metric every cell has the same value of.
        QStringList preferred;
        for (const QString &name : metrics) {
            if (tellsCellsApart(*m_tree, m_metrics, name))
                preferred.append(name);
        }
        for (const QString &name : metrics) {
            if (!preferred.contains(name))
                preferred.append(name);
        }
        const QString firstX = metrics.contains(x) ? x : preferred.value(0);
        m_xMetric->setCurrentIndex(std::max(0, int(metrics.indexOf(firstX))));
        QString firstY = metrics.contains(y) && y != firstX ? y : QString();
        for (qsizetype k = 0; firstY.isEmpty() && k < preferred.size(); ++k) {
            if (preferred.at(k) != firstX)
                firstY = preferred.at(k);
        }
        m_yMetric->setCurrentIndex(metrics.contains(firstY) ? int(metrics.indexOf(firstY)) : std::min(1, int(metrics.size()) - 1));
    }
    rebuild();
}

void BehaviourGridView::setDarkPalette(bool dark)
{
    m_dark = dark;
    m_canvas->update();
}

void BehaviourGridView::setPlaceholderText(const QString &text)
{
    m_placeholder = text;
    if (!m_tree)
        rebuild();
}

void BehaviourGridView::rebuild()
{
    m_grid.reset();
    m_problem.clear();
    if (!m_tree) {
        m_problem = m_placeholder.isEmpty() ? tr("No tree open") : m_placeholder;
    } else if (m_xMetric->count() < 2) {
        m_problem = m_xMetric->count() == 0
                        ? tr("The cells of this tree carry no numeric metrics: a behaviour grid needs two.")
                        : tr("The cells of this tree carry one numeric metric (%1): a behaviour grid needs two.")
                              .arg(m_xMetric->itemText(0));
    } else {
        QList<int> keys;
        if (BehaviourGrid::Order(m_order->currentData().toInt()) == BehaviourGrid::Order::Generation && m_structure) {
            keys.reserve(m_tree->cellCount());
            for (int c = 0; c < m_tree->cellCount(); ++c)
                keys.append(m_structure->depthOf(c));
        }
        Result<BehaviourGrid> built = BehaviourGrid::build(*m_tree, m_metrics, m_xMetric->currentText(), m_yMetric->currentText(),
                                                           m_xBins->value(), m_yBins->value(), keys);
        if (built)
            m_grid = std::move(built.value);
        else
            m_problem = built.error;
    }
    {
        const QSignalBlocker block(m_slider);
        m_slider->setEnabled(m_grid.has_value());
        if (m_grid) {
            m_slider->setRange(int(m_grid->firstKey()), int(m_grid->lastKey()));
            m_slider->setValue(int(m_grid->lastKey()));
        }
    }
    updateStatus();
    m_canvas->update();
}

void BehaviourGridView::refill()
{
    if (!m_grid)
        return;
    m_grid->fill(m_slider->value());
    updateStatus();
    m_canvas->update();
}

void BehaviourGridView::updateStatus()
{
    if (!m_grid) {
        m_status->setText(QString());
        return;
    }
    const bool generation = BehaviourGrid::Order(m_order->currentData().toInt()) == BehaviourGrid::Order::Generation;
    QString text = generation ? tr("up to generation %1: %n cell(s)", nullptr, m_grid->filledCount()).arg(m_grid->filledUpTo())
                              : tr("up to seq %1: %n cell(s)", nullptr, m_grid->filledCount()).arg(m_grid->filledUpTo());
    if (m_grid->missingCount() > 0)
        text += tr(" · %n without both metrics", nullptr, m_grid->missingCount());
    m_status->setText(text);
}

QString BehaviourGridView::binText(int i, int j) const
{
    if (!m_grid || !m_tree)
        return {};
    const BehaviourGrid::Bin &b = m_grid->bin(i, j);
    QStringList lines{tr("%1 in [%2, %3), %4 in [%5, %6)")
                          .arg(m_grid->x().metric, shortNumber(m_grid->x().edge(i)), shortNumber(m_grid->x().edge(i + 1)),
                               m_grid->y().metric, shortNumber(m_grid->y().edge(j)), shortNumber(m_grid->y().edge(j + 1))),
                      tr("%n cell(s)", nullptr, int(b.cells.size()))};
    if (b.bestScore)
        lines.append(tr("best %1 (%2)").arg(shortNumber(*b.bestScore), m_tree->cells().at(b.best).id));
    // The cells, best first, at most a screenful.
    constexpr int Listed = 20;
    QList<int> cells = b.cells;
    std::stable_sort(cells.begin(), cells.end(), [this](int a, int c) {
        return m_tree->cells().at(a).effectiveScore() > m_tree->cells().at(c).effectiveScore();
    });
    for (int k = 0; k < std::min(Listed, int(cells.size())); ++k) {
        const Cell &c = m_tree->cells().at(cells.at(k));
        lines.append(c.score ? QStringLiteral("  %1  %2").arg(c.id, shortNumber(*c.score)) : QStringLiteral("  %1  —").arg(c.id));
    }
    if (cells.size() > Listed)
        lines.append(tr("  … and %n more", nullptr, int(cells.size()) - Listed));
    return lines.join(QLatin1Char('\n'));
}

void BehaviourGridView::paintFigure(QPainter &painter, const QRectF &target) const
{
    if (!m_grid)
        return;
    painter.save();
    painter.setFont(TreeRenderer::figureFont(painter.font(), target));
    paintGrid(*this, *m_grid, painter, target, TreePalette::light());
    painter.restore();
}

FigureTable BehaviourGridView::figureData() const
{
    if (!m_grid || !m_tree)
        return {};
    return FigureTable{BehaviourGrid::csvHeader(), m_grid->rows(*m_tree)};
}

} // namespace dreamrsi
