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
class QScatterSeries;
class QTimer;
class QValueAxis;

namespace dreamrsi {

/// The live dashboard of a round (Qt Charts), beside the live tree: the
/// best score against agent calls (with each attempt's own score as a dot)
/// and the cumulative cost in USD against the time elapsed since the
/// iteration started.
///
/// Cells are given in the order they were stored (seq). Each adds points;
/// the series are never rebuilt. Points are appended in batches at most
/// five times a second, so a burst of cells costs one redraw.
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
    /// Best score so far at each call that had a score, after flush().
    QLineSeries *bestSeries() const { return m_bestSeries; }
    /// Every attempt's own score, after flush().
    QScatterSeries *attemptSeries() const { return m_attemptSeries; }
    /// Cumulative cost (USD) against seconds since the start, from (0, 0); after flush().
    QLineSeries *costSeries() const { return m_costSeries; }

private:
    void scheduleFlush();
    void updateRanges();

    QChartView *m_scoreView = nullptr;
    QChartView *m_costView = nullptr;
    QLineSeries *m_bestSeries = nullptr;
    QScatterSeries *m_attemptSeries = nullptr;
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
    std::optional<double> m_lowest; ///< smallest score seen (the score axis' floor)
    QList<QPointF> m_pendingBest;
    QList<QPointF> m_pendingAttempts;
    QList<QPointF> m_pendingCost;
};

} // namespace dreamrsi
