#include "livedashboard.h"

#include "model/attemptpayload.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QJsonObject>
#include <QLineSeries>
#include <QTimer>
#include <QValueAxis>
#include <QHBoxLayout>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

constexpr int VerticalTicks = 3;
constexpr int HorizontalTicks = 5;

/// A round number near `x` > 0: 1, 2 or 5 times a power of ten; the next
/// one up from x (`up`), or the closest. Heckbert's "nice numbers"
/// (Graphics Gems, 1990), which QValueAxis::applyNiceNumbers also uses.
double niceNumber(double x, bool up)
{
    const double power = std::pow(10.0, std::floor(std::log10(x)));
    const double f = x / power; // in [1, 10)
    double nice = 10.0;
    if (up)
        nice = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0;
    else
        nice = f < 1.5 ? 1.0 : f < 3.0 ? 2.0 : f < 7.0 ? 5.0 : 10.0;
    return nice * power;
}

/// Gives `axis` the range of round numbers around [lo, hi] with about
/// `ticks` ticks, and says whether that changed anything. An axis given a
/// range lays its labels out again (milliseconds for a chart; the frames of
/// a growing round felt it at every hand-over), so a range that stays the
/// same is not set again.
bool setNiceRange(QValueAxis *axis, double lo, double hi, int ticks)
{
    double min = lo, max = hi;
    int count = ticks;
    if (hi > lo) {
        const double step = niceNumber(niceNumber(hi - lo, true) / double(ticks - 1), false);
        min = std::floor(lo / step) * step;
        max = std::ceil(hi / step) * step;
        count = int(std::lround((max - min) / step)) + 1;
    }
    if (axis->min() == min && axis->max() == max && axis->tickCount() == count)
        return false;
    axis->setRange(min, max);
    axis->setTickCount(count);
    return true;
}

QChart *makeChart(const QString &title)
{
    auto *chart = new QChart;
    chart->setTitle(title);
    QFont font = chart->titleFont();
    font.setBold(true);
    chart->setTitleFont(font);
    chart->setMargins(QMargins(4, 2, 4, 2));
    chart->layout()->setContentsMargins(0, 0, 0, 0);
    chart->setBackgroundRoundness(0);
    return chart;
}

QValueAxis *makeAxis(const QString &title, const QString &format, int ticks = 5)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    QFont font = axis->titleFont();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    axis->setTitleFont(font);
    axis->setLabelFormat(format);
    axis->setTickCount(ticks);
    axis->setMinorTickCount(0);
    return axis;
}

QChartView *makeView(QChart *chart)
{
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(260, 130);
    return view;
}

/// A titled chart of one line on axes `x` and `y`, without a legend, in its view.
QChartView *makeLineChart(const QString &title, QLineSeries *series, const QColor &color, QValueAxis *x, QValueAxis *y)
{
    QChart *chart = makeChart(title);
    QPen pen(color);
    pen.setWidthF(2.0);
    series->setPen(pen);
    chart->addSeries(series);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    series->attachAxis(x);
    series->attachAxis(y);
    chart->legend()->hide();
    return makeView(chart);
}

} // namespace

LiveDashboard::LiveDashboard(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("liveDashboard"));

    m_bestSeries = new QLineSeries;
    m_bestSeries->setName(tr("Best so far"));
    m_callsAxis = makeAxis(tr("Agent calls"), QStringLiteral("%d"));
    // The charts are low: three ticks on the vertical axes keep every label
    // (with five, Qt Charts drops the ones that would touch).
    m_scoreAxis = makeAxis(tr("Best score"), QStringLiteral("%.5g"), VerticalTicks);
    m_scoreView = makeLineChart(tr("Best score by agent call"), m_bestSeries, QColor(0x1f, 0x77, 0xb4), m_callsAxis,
                                m_scoreAxis);
    m_scoreView->setObjectName(QStringLiteral("dashboardScore"));

    m_costSeries = new QLineSeries;
    m_costSeries->setName(tr("Cumulative cost"));
    m_timeAxis = makeAxis(tr("Elapsed time (s)"), QStringLiteral("%.0f"));
    m_usdAxis = makeAxis(tr("USD"), QStringLiteral("%.3g"), VerticalTicks); // short: the chart is low
    m_costView = makeLineChart(tr("Cost over time"), m_costSeries, QColor(0x2c, 0xa0, 0x2c), m_timeAxis, m_usdAxis);
    m_costView->setObjectName(QStringLiteral("dashboardCost"));

    // Side by side: the Live Round dock lies below the tabs, wide and low
    // (RoundPanel::sizeHint); stacked, the two charts made it as tall as the tabs.
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(m_scoreView, 1);
    layout->addWidget(m_costView, 1);

    m_flush = new QTimer(this);
    m_flush->setSingleShot(true);
    m_flush->setInterval(200); // at most five redraws a second, however fast cells arrive
    connect(m_flush, &QTimer::timeout, this, &LiveDashboard::flush);
    reset();
}

LiveDashboard::~LiveDashboard() = default;

void LiveDashboard::reset(const QDateTime &started)
{
    m_flush->stop();
    m_started = started.isValid() ? started.toUTC() : QDateTime::currentDateTimeUtc();
    m_clock.start();
    m_calls = 0;
    m_usd = 0.0;
    m_lastSeconds = 0.0;
    m_best.reset();
    m_firstBest.reset();
    m_bestSteps.clear();
    m_costPoints = {QPointF(0.0, 0.0)};
    m_dirty = true;
    flush();
}

void LiveDashboard::addCell(const Cell &cell)
{
    ++m_calls;
    m_usd += AttemptPayload::agentOf(cell).cost;
    // The cell's own end time when it has one (a followed or resumed round);
    // else now. Cells come in the order they were stored, so time never goes back.
    double seconds = double(m_clock.elapsed()) / 1000.0;
    const QString ended = AttemptPayload::timingOf(cell).ended;
    if (!ended.isEmpty()) {
        const QDateTime at = QDateTime::fromString(ended, Qt::ISODateWithMs);
        if (at.isValid())
            seconds = double(m_started.msecsTo(at)) / 1000.0;
    }
    seconds = std::max(seconds, m_lastSeconds);
    m_lastSeconds = seconds;
    m_costPoints.append(QPointF(seconds, m_usd));
    if (cell.score && std::isfinite(*cell.score) && (!m_best || *cell.score > *m_best)) {
        const double x = double(m_calls);
        if (m_best)
            m_bestSteps.append(QPointF(x, *m_best));
        else
            m_firstBest = cell.score;
        m_bestSteps.append(QPointF(x, *cell.score));
        m_best = cell.score;
    }
    m_dirty = true;
    if (!m_flush->isActive())
        m_flush->start();
}

void LiveDashboard::flush()
{
    m_flush->stop();
    if (!m_dirty)
        return;
    m_dirty = false;
    QList<QPointF> best = m_bestSteps;
    if (m_best && best.last().x() < double(m_calls))
        best.append(QPointF(double(m_calls), *m_best));
    m_bestSeries->replace(best);
    if (m_costPoints.size() <= MaxCostPoints) {
        m_costSeries->replace(m_costPoints);
    } else {
        const qsizetype step = (m_costPoints.size() + MaxCostPoints - 1) / MaxCostPoints;
        QList<QPointF> thinned;
        thinned.reserve(MaxCostPoints + 1);
        for (qsizetype i = 0; i < m_costPoints.size(); i += step)
            thinned.append(m_costPoints.at(i));
        if (thinned.last() != m_costPoints.last())
            thinned.append(m_costPoints.last());
        m_costSeries->replace(thinned);
    }
    updateRanges();
}

void LiveDashboard::updateRanges()
{
    // Each axis gets round numbers around its data, set only when they change.
    bool changed = setNiceRange(m_callsAxis, 0.0, std::max<double>(5.0, double(m_calls)), HorizontalTicks);
    if (m_best) {
        const double lo = m_firstBest.value_or(*m_best);
        const double span = *m_best - lo;
        const double pad = span > 0.0 ? span * 0.08 : std::max(1e-6, std::abs(*m_best) * 0.01);
        changed |= setNiceRange(m_scoreAxis, lo - pad, *m_best + pad, VerticalTicks);
    } else {
        changed |= setNiceRange(m_scoreAxis, 0.0, 1.0, VerticalTicks);
    }
    changed |= setNiceRange(m_timeAxis, 0.0, std::max(10.0, m_lastSeconds), HorizontalTicks);
    changed |= setNiceRange(m_usdAxis, 0.0, std::max(0.01, m_usd * 1.1), VerticalTicks);
    // Qt Charts recomputes the axes' widths on a range change only within the
    // space the last full layout gave them, so labels that grew wider (2.6 ->
    // 2.6265) stayed elided to "..."; a full layout gives them their width.
    // Only a new range can change a label.
    if (changed) {
        for (QChartView *view : {m_scoreView, m_costView})
            view->chart()->layout()->invalidate();
    }
}

} // namespace dreamrsi
