#pragma once

#include "treerenderer.h"

#include <QImage>
#include <QWidget>

#include <optional>

namespace dreamrsi {

/// Interactive discovery-tree view: wheel or +/- to zoom about the cursor,
/// drag to pan, F or double-click on empty space to fit, hover for a tooltip,
/// click to inspect. An overview in the lower right shows where the viewport
/// is when the tree does not fit, and can be clicked to jump.
class TreeView final : public QWidget
{
    Q_OBJECT
public:
    explicit TreeView(QWidget *parent = nullptr);

    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    /// The same with the cells' styles derived already (on a worker).
    void setTree(std::shared_ptr<const DiscoveryTree> tree, TreeCellStyles styles);
    std::shared_ptr<const DiscoveryTree> tree() const { return m_renderer.tree(); }
    const TreeRenderer &renderer() const { return m_renderer; }

    void setDarkPalette(bool dark);
    void setOverlay(RevealOverlay overlay);
    void setLegendVisible(bool visible);
    /// What the view says while it has no tree; empty = "No tree open…".
    void setPlaceholderText(const QString &text);
    QString placeholderText() const;
    /// Steering marks under steered branches (TreeRenderer::setBranchMarks).
    void setBranchMarks(QHash<int, QStringList> marks);
    /// Highlights the path to a cell (TreeRenderer::setPath); nothing while another tree is shown.
    void setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells);
    /// A live round's running attempts with their elapsed time and limit.
    void setRunningAttempts(QList<RunningAttempt> running);
    bool isLegendVisible() const { return m_legendVisible; }

    double scale() const { return m_scale; }
    QPointF offset() const { return m_offset; }
    /// Whether the whole tree is visible at the current zoom.
    bool isFitted() const;

    /// Marks every cell whose id or one of whose tags contains `text`
    /// (case-insensitive) and centres the first; returns the number found.
    int search(const QString &text);
    int selectedCell() const { return m_renderer.selected(); }
    /// The branch id drawn at `pos` (widget coordinates): a cell's or a
    /// running attempt's, or its column's between the branch label above the
    /// bus and its last row; none elsewhere.
    std::optional<int> branchAt(const QPointF &pos) const;
    /// The running attempt drawn at `pos` (widget coordinates), or none.
    std::optional<RunningAttempt> runningAttemptAt(const QPointF &pos) const;

    QSize sizeHint() const override { return {800, 600}; }

public slots:
    void zoomIn();
    void zoomOut();
    void fitToView();
    void selectCell(int cellIndex);
    void centerOn(int cellIndex);

signals:
    void cellActivated(int cellIndex);
    void zoomChanged(double scale);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void wheelEvent(QWheelEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    bool event(QEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void zoomAt(double factor, const QPointF &anchor);
    void clampOffset();
    QRectF overviewRect() const;
    bool overviewVisible() const;
    /// The overview is drawn when it is first shown after a change (a tree
    /// that fits the view, as a growing live tree does, never needs one).
    void invalidateOverview();
    const QImage &overview() const;
    void rebuildOverview() const;
    QPointF toScene(const QPointF &device) const;
    int cellAtPos(const QPointF &pos) const;

    TreeRenderer m_renderer;
    double m_scale = 1.0;
    QPointF m_offset;
    bool m_fitted = true;
    bool m_legendVisible = true;
    bool m_dragging = false;
    bool m_moved = false;
    QPointF m_dragStart;
    QPointF m_offsetAtDragStart;
    QString m_placeholder;
    mutable QImage m_overview;
    mutable double m_overviewScale = 1.0;
    mutable bool m_overviewStale = false;
};

} // namespace dreamrsi
