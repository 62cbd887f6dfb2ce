#pragma once

#include "genealogylayout.h"
#include "treecellstyles.h"
#include "treerenderer.h"

#include <QSet>
#include <QWidget>

class QScrollBar;

#include <memory>

namespace dreamrsi {

/// A run drawn as its genealogy or its islands (GenealogyLayout): the
/// Discovery tab's layouts for imported runs (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run). Cells
/// are coloured by score as in the tree view, failures greyed with their
/// glyph; links go from parent to child, migrations between islands in
/// the accent colour; each island's band says its count, best and
/// migrations; a legend explains the marks. Rows are labelled with their
/// generation at the view's left edge, the islands' headers stay at its
/// top, both at the widget's font size whatever the zoom; the legend has
/// its own place right of the tree. Fit shows the whole run when its cells
/// stay readable (at least MinFitCellPx tall), else the readable scale from
/// the top (the initial program's column, in Genealogy) with scroll bars.
/// Wheel or +/- zoom about the cursor, drag or the scroll bars pan, F or a
/// double click fits, hover tells a cell, a click inspects it.
class RunStructureView final : public QWidget
{
    Q_OBJECT
public:
    /// The smallest cell height, in pixels, Fit draws a run at: below it a
    /// fitted run was a thin strip (200 programs) or a line (10,000).
    static constexpr double MinFitCellPx = 7.0;

    explicit RunStructureView(QWidget *parent = nullptr);

    /// What showing a tree takes: its structure, the cells' styles and both
    /// layouts. A pure function of the tree, made on a worker for a large
    /// run so that the GUI thread only takes it (setPrepared).
    struct Prepared
    {
        std::shared_ptr<const DiscoveryTree> tree;
        std::shared_ptr<const RunStructure> structure;
        TreeCellStyles styles;
        GenealogyLayout genealogy;
        GenealogyLayout islands;
    };
    static Prepared prepare(std::shared_ptr<const DiscoveryTree> tree, std::shared_ptr<const RunStructure> structure = {},
                            TreeCellStyles styles = {});
    void setPrepared(Prepared prepared);

    /// Shows `tree` (nothing: empty) in the current mode.
    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    std::shared_ptr<const DiscoveryTree> tree() const { return m_tree; }
    void setMode(GenealogyLayout::Mode mode);
    GenealogyLayout::Mode mode() const { return m_mode; }
    const GenealogyLayout &layout() const { return m_layout; }
    const std::shared_ptr<const RunStructure> &structure() const { return m_structure; }

    void setDarkPalette(bool dark);
    void setLegendVisible(bool visible);
    /// What the view says while it has no tree; empty: "No tree open".
    void setPlaceholderText(const QString &text);
    void setMatches(QSet<int> cells);
    /// The path to a cell (the inspector's Path page, docs/compare.md#the-path-to-the-best):
    /// a line from the initial program through its steps' cells, drawn while
    /// `tree` is the tree shown, as TreeView::setPath draws it on the branches.
    void setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells);
    /// The path drawn now: empty when none, or when it is of another tree.
    QList<int> path() const { return m_pathTree && m_pathTree == m_tree ? m_path : QList<int>(); }
    int selectedCell() const { return m_selected; }
    double scale() const { return m_scale; }
    bool isFitted() const { return m_fitted; }
    /// Where a scene point is drawn in the widget.
    QPointF toView(const QPointF &scenePoint) const { return scenePoint * m_scale + m_offset; }
    /// The part of the widget the scene is drawn in: the widget less the
    /// generation labels on the left, the island headers on top, the
    /// legend on the right and the scroll bars.
    QRectF sceneViewport() const;
    /// Where the legend is drawn (empty when hidden).
    QRectF legendRect() const;
    QScrollBar *horizontalScrollBar() const { return m_hbar; }
    QScrollBar *verticalScrollBar() const { return m_vbar; }
    /// The generation label of a row ("gen 3").
    static QString generationLabel(int generation);

    /// The layout as a figure (light palette, legend on the right, or under a
    /// tree that it draws larger), with its generation labels and headers.
    void paintFigure(QPainter &painter, const QRectF &target) const;
    /// The legend's rows, top to bottom (after the colour scale).
    QStringList legendLabels() const;
    /// One island's header line: "Island 2 · 1,204 programs · best 0.913 (b12a3)".
    QString islandTitle(int islandIndex) const;
    /// Its second line: migrations in and out.
    QString islandMigrations(int islandIndex) const;

    QSize sizeHint() const override { return {800, 600}; }

public slots:
    void zoomIn();
    void zoomOut();
    void fitToView();
    void selectCell(int cellIndex);
    void centerOn(int cellIndex);

signals:
    void cellActivated(int cellIndex);

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

private:
    void relayout();
    void zoomAt(double factor, const QPointF &anchor);
    /// The margins the overlays take around the scene (left: generation
    /// labels, top: island headers), measured with `fm`.
    QMarginsF overlayMargins(const QFontMetricsF &fm) const;
    /// Shows, hides and sets the scroll bars for the scene drawn now.
    void syncScrollBars();
    QRectF viewportFor(bool hbar, bool vbar) const;
    /// The generation labels left of `viewport` and the island headers
    /// above it, over the scene, at the painter's font size.
    void paintOverlays(QPainter &painter, const QRectF &viewport, double scale, const QPointF &offset,
                       const TreePalette &palette) const;
    /// Paints what of the scene falls into `exposed` (device coordinates).
    void paintScene(QPainter &painter, const QRectF &exposed, double scale, const QPointF &offset,
                    const TreePalette &palette) const;
    void paintPath(QPainter &painter, double scale, const QPointF &offset, const TreePalette &palette) const;
    QSizeF legendSize(const QFontMetricsF &fm) const;
    void paintLegend(QPainter &painter, const QRectF &area, const TreePalette &palette) const;
    QString tooltipFor(int cell) const;
    int cellAtPos(const QPointF &pos) const;

    std::shared_ptr<const DiscoveryTree> m_tree;
    std::shared_ptr<const RunStructure> m_structure;
    TreeCellStyles m_styles;
    GenealogyLayout::Mode m_mode = GenealogyLayout::Mode::Genealogy;
    GenealogyLayout m_layout;   ///< the mode's: m_genealogy or m_islands
    GenealogyLayout m_genealogy;
    GenealogyLayout m_islands;
    TreePalette m_palette = TreePalette::light();
    QSet<int> m_matches;
    std::shared_ptr<const DiscoveryTree> m_pathTree; ///< the tree m_path is of
    QList<int> m_path;
    QString m_placeholder;
    int m_selected = -1;
    bool m_legendVisible = true;
    double m_scale = 1.0;
    QPointF m_offset;
    bool m_fitted = true;
    bool m_dragging = false;
    bool m_moved = false;
    QPointF m_dragStart;
    QPointF m_offsetAtDragStart;
    QScrollBar *m_hbar = nullptr;
    QScrollBar *m_vbar = nullptr;
    bool m_syncing = false;
};

} // namespace dreamrsi
