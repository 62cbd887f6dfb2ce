#include "livedashboard.h"

#include <QChart>
#include <QChartView>
#include <QGraphicsLayout>
#include <QJsonObject>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTimer>
#include <QValueAxis>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

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

QValueAxis *makeAxis(const QString &title, const QString &format)
{
    auto *axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setLabelFormat(format);
    axis->setTickCount(5);
    axis->setMinorTickCount(0);
    return axis;
}

QChartView *makeView(QChart *chart)
{
    auto *view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(240, 160);
    return view;
}

} // namespace

LiveDashboard::LiveDashboard(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("liveDashboard"));

    QChart *score = makeChart(tr("Best score by agent call"));
    m_bestSeries = new QLineSeries;
    m_bestSeries->setName(tr("Best so far"));
    QPen pen(QColor(0x1f, 0x77, 0xb4));
    pen.setWidthF(2.0);
    m_bestSeries->setPen(pen);
    m_attemptSeries = new QScatterSeries;
    m_attemptSeries->setName(tr("Attempt"));
    m_attemptSeries->setMarkerSize(5.0);
    m_attemptSeries->setColor(QColor(0xff, 0x7f, 0x0e, 160));
    m_attemptSeries->setBorderColor(Qt::transparent);
    score->addSeries(m_attemptSeries);
    score->addSeries(m_bestSeries);
    m_callsAxis = makeAxis(tr("Agent calls"), QStringLiteral("%d"));
    m_scoreAxis = makeAxis(tr("Score"), QStringLiteral("%.4g"));
    score->addAxis(m_callsAxis, Qt::AlignBottom);
    score->addAxis(m_scoreAxis, Qt::AlignLeft);
    for (QXYSeries *s : {static_cast<QXYSeries *>(m_bestSeries), static_cast<QXYSeries *>(m_attemptSeries)}) {
        s->attachAxis(m_callsAxis);
        s->attachAxis(m_scoreAxis);
    }
    score->legend()->setAlignment(Qt::AlignBottom);
    m_scoreView = makeView(score);
    m_scoreView->setObjectName(QStringLiteral("dashboardScore"));

    QChart *cost = makeChart(tr("Cost over time"));
    m_costSeries = new QLineSeries;
    m_costSeries->setName(tr("Cumulative cost"));
    QPen costPen(QColor(0x2c, 0xa0, 0x2c));
    costPen.setWidthF(2.0);
    m_costSeries->setPen(costPen);
    cost->addSeries(m_costSeries);
    m_timeAxis = makeAxis(tr("Elapsed time (s)"), QStringLiteral("%.0f"));
    m_usdAxis = makeAxis(tr("Cost (USD)"), QStringLiteral("%.3g"));
    cost->addAxis(m_timeAxis, Qt::AlignBottom);
    cost->addAxis(m_usdAxis, Qt::AlignLeft);
    m_costSeries->attachAxis(m_timeAxis);
    m_costSeries->attachAxis(m_usdAxis);
    cost->legend()->hide();
    m_costView = makeView(cost);
    m_costView->setObjectName(QStringLiteral("dashboardCost"));

    auto *layout = new QVBoxLayout(this);
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
    m_lowest.reset();
    m_pendingBest.clear();
    m_pendingAttempts.clear();
    m_pendingCost.clear();
    m_bestSeries->clear();
    m_attemptSeries->clear();
    m_costSeries->clear();
    m_costSeries->append(0.0, 0.0);
    updateRanges();
}

void LiveDashboard::addCell(const Cell &cell)
{
    ++m_calls;
    m_usd += cell.payload.value(QStringLiteral("agent")).toObject().value(QStringLiteral("cost")).toDouble();
    // The cell's own end time when it has one (a followed or resumed round);
    // else now. Cells come in the order they were stored, so time never goes back.
    double seconds = double(m_clock.elapsed()) / 1000.0;
    const QString ended = cell.payload.value(QStringLiteral("timing")).toObject().value(QStringLiteral("ended")).toString();
    if (!ended.isEmpty()) {
        const QDateTime at = QDateTime::fromString(ended, Qt::ISODateWithMs);
        if (at.isValid())
            seconds = double(m_started.msecsTo(at)) / 1000.0;
    }
    seconds = std::max(seconds, m_lastSeconds);
    m_lastSeconds = seconds;
    m_pendingCost.append(QPointF(seconds, m_usd));
    if (cell.score && std::isfinite(*cell.score)) {
        const double s = *cell.score;
        m_best = m_best ? std::max(*m_best, s) : s;
        m_lowest = m_lowest ? std::min(*m_lowest, s) : s;
        m_pendingAttempts.append(QPointF(double(m_calls), s));
    }
    if (m_best)
        m_pendingBest.append(QPointF(double(m_calls), *m_best));
    if (!m_flush->isActive())
        m_flush->start();
}

void LiveDashboard::flush()
{
    m_flush->stop();
    if (m_pendingBest.isEmpty() && m_pendingAttempts.isEmpty() && m_pendingCost.isEmpty())
        return;
    // One append per series: one repaint for the whole batch.
    if (!m_pendingBest.isEmpty())
        m_bestSeries->append(std::exchange(m_pendingBest, {}));
    if (!m_pendingAttempts.isEmpty())
        m_attemptSeries->append(std::exchange(m_pendingAttempts, {}));
    if (!m_pendingCost.isEmpty())
        m_costSeries->append(std::exchange(m_pendingCost, {}));
    updateRanges();
}

void LiveDashboard::updateRanges()
{
    m_callsAxis->setRange(0.0, std::max<double>(5.0, double(m_calls)));
    m_callsAxis->applyNiceNumbers();
    if (m_best) {
        const double lo = m_lowest.value_or(*m_best);
        const double span = *m_best - lo;
        const double pad = span > 0.0 ? span * 0.08 : std::max(1e-6, std::abs(*m_best) * 0.01);
        m_scoreAxis->setRange(lo - pad, *m_best + pad);
    } else {
        m_scoreAxis->setRange(0.0, 1.0);
    }
    m_timeAxis->setRange(0.0, std::max(10.0, m_lastSeconds));
    m_timeAxis->applyNiceNumbers();
    m_usdAxis->setRange(0.0, std::max(0.01, m_usd * 1.1));
}

} // namespace dreamrsi
