#pragma once

#include "base/result.h"
#include "discoverytree.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// A behaviour grid (MAP-Elites' view of a run): the cells placed by two
/// numeric metrics into X × Y bins, each bin holding its cells, their count
/// and their best score (docs/tree-format.md#the-behaviour-grid). Headless:
/// the Discovery tab's grid and the tests bin with it.
///
/// The metrics are a cell's payload `metrics` (our rounds' evaluators' and
/// an imported run's), numbers only; a nested object's numbers are named
/// `outer.inner` (Shinka's `private.*`). Each axis spans the smallest to the
/// largest value over all cells (not only those shown), split into equal
/// bins: bin k holds lo + k·w ≤ v < lo + (k+1)·w with w = (hi − lo)/bins,
/// the last bin also holding hi; an axis whose cells share one value puts
/// them all in its first bin. Cells without both metrics are left out and
/// counted.
class BehaviourGrid
{
public:
    /// What the slider runs over: the cells' creation order (seq) or their
    /// generations (RunStructure's depth).
    enum class Order { Creation, Generation };

    struct Axis
    {
        QString metric;
        int bins = 10;
        double lo = 0.0;
        double hi = 0.0;
        /// Lower edge of bin k (k = bins: the upper end).
        double edge(int k) const;
        /// The bin of value v (clamped into the axis).
        int binOf(double v) const;
    };

    struct Bin
    {
        QList<int> cells;  ///< cell indices, in creation order
        int best = -1;     ///< the cell with the best finite ok score, -1 when none
        std::optional<double> bestScore;
    };

    /// Every numeric metric of a tree's cells read once (any thread), so
    /// that choosing other metrics bins without reading payloads again.
    struct MetricColumns
    {
        QStringList names;           ///< sorted
        QList<QList<double>> values; ///< per name, per cell; NaN where the cell has none
        static MetricColumns of(const DiscoveryTree &tree);
        /// The column of `name`, null when no cell carries it.
        const QList<double> *column(const QString &name) const;
    };

    /// The names of the numeric metrics any cell carries, sorted.
    static QStringList numericMetrics(const DiscoveryTree &tree);
    /// Cell `cell`'s value of `metric`, if it is a finite number.
    static std::optional<double> metricValue(const Cell &cell, const QString &metric);

    /// Reads both metrics of every cell once (what the slider then fills
    /// from); `keys` are the slider's values per cell (seq, or generation),
    /// nothing for seq. Fails naming what is wrong: a metric no cell
    /// carries, bins outside 1 … 1000.
    static Result<BehaviourGrid> build(const DiscoveryTree &tree, const QString &xMetric, const QString &yMetric,
                                       int xBins = 10, int yBins = 10, const QList<int> &keys = {});
    /// The same from metrics read before.
    static Result<BehaviourGrid> build(const DiscoveryTree &tree, const MetricColumns &columns, const QString &xMetric,
                                       const QString &yMetric, int xBins = 10, int yBins = 10,
                                       const QList<int> &keys = {});

    const Axis &x() const { return m_x; }
    const Axis &y() const { return m_y; }
    /// Cells with both metrics; cells left out for lack of one.
    int placedCount() const { return int(m_samples.size()); }
    int missingCount() const { return m_missing; }
    /// The slider's range over the placed cells (smallest and largest key).
    qint64 firstKey() const { return m_firstKey; }
    qint64 lastKey() const { return m_lastKey; }

    /// Fills the bins with the placed cells whose key is at most `upTo`
    /// (every cell: lastKey()). O(cells).
    void fill(qint64 upTo);
    /// Cells the bins hold now.
    int filledCount() const { return m_filled; }
    qint64 filledUpTo() const { return m_upTo; }
    /// Bin (i, j), i along x, j along y.
    const Bin &bin(int i, int j) const { return m_bins.at(j * m_x.bins + i); }
    /// Best finite ok score over the placed cells (the colour scale's range).
    std::optional<double> scoreMin() const { return m_scoreMin; }
    std::optional<double> scoreMax() const { return m_scoreMax; }

    /// The bins as CSV: `x_bin,y_bin,x_lo,x_hi,y_lo,y_hi,count,best_score,best_cell,cells`
    /// (cells: the ids, space-separated), one row per bin, empty bins included.
    QString toCsv(const DiscoveryTree &tree) const;
    /// The same as a header and rows of fields (a figure's data table).
    static QStringList csvHeader();
    QList<QStringList> rows(const DiscoveryTree &tree) const;

private:
    /// Both builds: the metrics' values per cell (NaN: none).
    static Result<BehaviourGrid> build(const DiscoveryTree &tree, const QString &xMetric, const QList<double> &xs,
                                       const QString &yMetric, const QList<double> &ys, int xBins, int yBins,
                                       const QList<int> &keys);
    struct Sample
    {
        int cell;
        qint64 key;
        int i, j;
        std::optional<double> score;
    };
    Axis m_x, m_y;
    QList<Sample> m_samples; ///< in creation order
    QList<Bin> m_bins;
    int m_missing = 0;
    int m_filled = 0;
    qint64 m_firstKey = 0, m_lastKey = 0, m_upTo = 0;
    std::optional<double> m_scoreMin, m_scoreMax;
};

} // namespace dreamrsi
