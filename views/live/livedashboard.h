#pragma once

#include "model/cell.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <optional>

class QChart;
class QChartView;
class QLineSeries;
class QTimer;
class QValueAxis;

namespace dreamrsi {

/// The live dashboard of a round (Qt Charts), beside the live tree: the
/// best score so far against agent calls (a staircase) and the cumulative
/// cost in USD against the time elapsed since the iteration started.
///
/// Cells are given in the order they were stored (seq); each adds to the
/// dashboard's own point lists at once. The charts are given those points
/// at most five times a second, in one call per series: Qt Charts lays a
/// series out again for every point appended (QXYSeries::append of a list
/// emits pointAdded per point), so a batch is handed over with replace(),
/// one layout per series and redraw. The staircase keeps only the points
/// where the best score changed; a cost curve of more than MaxCostPoints
/// points is drawn thinned (every k-th point and the last), the totals stay
/// exact. An axis is given a new range only when its round numbers change
/// (a new range lays the chart out again).
class LiveDashboard final : public QWidget
{
    Q_OBJECT
public:
    explicit LiveDashboard(QWidget *parent = nullptr);
    ~LiveDashboard() override;

    /// Forgets every point. `started` (UTC) is time zero of the cost chart;
    /// invalid = the moment of this call.
    void reset(const QDateTime &started = {});
    /// One stored cell: a call, its cost, its score.
    void addCell(const Cell &cell);
    /// Appends the points still waiting for the next redraw now.
    void flush();

    qint64 calls() const { return m_calls; }
    double usd() const { return m_usd; }
    std::optional<double> bestScore() const { return m_best; }

    QChartView *scoreView() const { return m_scoreView; }
    QChartView *costView() const { return m_costView; }
    /// The best score so far by call, as a staircase: a point where each
    /// improvement happens (from the old best to the new one at its call)
    /// and one at the last call; after flush().
    QLineSeries *bestSeries() const { return m_bestSeries; }
    /// Cumulative cost (USD) against seconds since the start, from (0, 0); after flush().
    QLineSeries *costSeries() const { return m_costSeries; }
    /// The cost curve's points, unthinned.
    const QList<QPointF> &costPoints() const { return m_costPoints; }

    /// About one point a pixel of the chart's width: a line of more points
    /// looks the same and costs more at every hand-over (Qt Charts strokes
    /// the whole line again to find its shape).
    static constexpr qsizetype MaxCostPoints = 500;

private:
    void updateRanges();

    QChartView *m_scoreView = nullptr;
    QChartView *m_costView = nullptr;
    QLineSeries *m_bestSeries = nullptr;
    QLineSeries *m_costSeries = nullptr;
    QValueAxis *m_callsAxis = nullptr;
    QValueAxis *m_scoreAxis = nullptr;
    QValueAxis *m_timeAxis = nullptr;
    QValueAxis *m_usdAxis = nullptr;
    QTimer *m_flush = nullptr;

    QDateTime m_started;
    QElapsedTimer m_clock; ///< for cells that carry no end time
    qint64 m_calls = 0;
    double m_usd = 0.0;
    double m_lastSeconds = 0.0;
    std::optional<double> m_best;
    std::optional<double> m_firstBest; ///< the first score (the score axis' floor)
    QList<QPointF> m_bestSteps;  ///< where the best changed
    QList<QPointF> m_costPoints; ///< from (0, 0), one per cell
    bool m_dirty = false;
};

} // namespace dreamrsi
