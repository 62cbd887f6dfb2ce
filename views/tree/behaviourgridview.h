#pragma once

#include "model/behaviourgrid.h"
#include "model/runstructure.h"

#include "figures/figuretable.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace dreamrsi {

class BehaviourGridCanvas;

/// The behaviour grid of a tree (BehaviourGrid, docs/tree-format.md#the-behaviour-grid):
/// two numeric metrics of its cells chosen here, binned X × Y (10 × 10 unless
/// changed), each bin coloured by its best score and labelled with its count;
/// a slider over creation order or generations fills the grid as the run
/// went; hovering a bin lists its cells, a click inspects its best cell.
/// Exported as a figure with its bins as CSV.
class BehaviourGridView final : public QWidget
{
    Q_OBJECT
public:
    explicit BehaviourGridView(QWidget *parent = nullptr);

    /// What showing a tree takes: its metrics read once and its structure
    /// (the generations). Made on a worker for a large run (setPrepared).
    struct Prepared
    {
        std::shared_ptr<const DiscoveryTree> tree;
        std::shared_ptr<const RunStructure> structure;
        BehaviourGrid::MetricColumns metrics;
    };
    static Prepared prepare(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const RunStructure> structure = {});
    void setPrepared(Prepared prepared);

    /// Shows `tree`'s grid over the first two numeric metrics its cells carry
    /// (or the ones chosen before, when it has them too).
    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    std::shared_ptr<const DiscoveryTree> tree() const { return m_tree; }
    /// The grid shown, filled up to the slider; nothing when the tree has
    /// fewer than two numeric metrics or no cell carries both.
    const std::optional<BehaviourGrid> &grid() const { return m_grid; }
    /// Why there is no grid ("no numeric metrics …"), empty when there is one.
    QString problem() const { return m_problem; }

    QComboBox *xMetricBox() const { return m_xMetric; }
    QComboBox *yMetricBox() const { return m_yMetric; }
    QSpinBox *xBinsBox() const { return m_xBins; }
    QSpinBox *yBinsBox() const { return m_yBins; }
    QComboBox *orderBox() const { return m_order; }
    QSlider *slider() const { return m_slider; }
    void setDarkPalette(bool dark);
    /// What the view says while it has no tree; empty: "No tree open".
    void setPlaceholderText(const QString &text);

    /// The grid as a figure: bins, axes, colour scale (light palette).
    void paintFigure(QPainter &painter, const QRectF &target) const;
    /// The bins as a table (BehaviourGrid::rows).
    FigureTable figureData() const;
    /// The tooltip of bin (i, j): its range, count, best and cells.
    QString binText(int i, int j) const;

signals:
    /// The best cell of a clicked bin.
    void cellActivated(int cellIndex);

private:
    friend class BehaviourGridCanvas;
    void rebuild();
    void refill();
    void updateStatus();

    std::shared_ptr<const DiscoveryTree> m_tree;
    std::shared_ptr<const RunStructure> m_structure;
    BehaviourGrid::MetricColumns m_metrics;
    std::optional<BehaviourGrid> m_grid;
    QString m_problem;
    QString m_placeholder;
    bool m_dark = false;
    QComboBox *m_xMetric = nullptr;
    QComboBox *m_yMetric = nullptr;
    QSpinBox *m_xBins = nullptr;
    QSpinBox *m_yBins = nullptr;
    QComboBox *m_order = nullptr;
    QSlider *m_slider = nullptr;
    QLabel *m_status = nullptr;
    BehaviourGridCanvas *m_canvas = nullptr;
};

} // namespace dreamrsi
