#pragma once

#include "failglyph.h"
#include "treecellstyles.h"
#include "treelayout.h"

#include "models/runningattempt.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QHash>
#include <QImage>
#include <QList>
#include <QMap>
#include <QSet>

#include <optional>

class QFontMetricsF;
class QPainter;

namespace dreamrsi {

/// Colours of the tree view; light() is also the paper palette of exports.
struct TreePalette
{
    QColor background;
    QColor text;
    QColor edge;
    QColor cellBorder;
    QColor noScore;     ///< fill of cells without a finite score
    QColor glyph;       ///< glyph on light fills
    QColor best;
    QColor selection;
    QColor match;
    QColor batch;
    static TreePalette light();
    static TreePalette dark();
};

/// How a replay reveals the tree: the round each cell was revealed in (-1:
/// not yet) and the number of rounds applied so far. Empty means "show all".
struct RevealOverlay
{
    QList<int> revealRound; ///< per cell index
    int roundsShown = 0;
    bool isActive() const { return !revealRound.isEmpty(); }
};

/// Everything the painter decides about one cell, exposed for tests.
struct CellStyle
{
    QColor fill;
    FailGlyph glyph = FailGlyph::None;
    bool best = false;
    bool selected = false;
    bool match = false;
    bool dimmed = false;       ///< not yet revealed by the overlay
    bool inLatestBatch = false;
    int round = -1;            ///< 1-based reveal round, -1 when none
    /// Drawn from the world model, not revealed (Imagination::isImagined):
    /// painted outlined and hatched in its colour, never as a solid fill.
    bool imagined = false;
    /// A probe call (docs/online.md#probes): marked by a corner flag.
    bool probe = false;
};

/// Where a figure of the tree puts its parts (device coordinates).
struct TreeFigureGeometry
{
    QRectF treeArea;          ///< room the tree is fitted into
    QRectF treeRect;          ///< what the scaled tree occupies inside treeArea
    QRectF legend;            ///< legend box, empty without a legend
    bool legendBelow = false; ///< horizontal legend under the tree instead of a column on the right
    double barLength = 0.0;   ///< length of the colour bar
    double scale = 1.0;
    QPointF offset;
};

/// Paints a laid-out discovery tree at any scale. Only cells inside the
/// exposed rectangle are touched, and detail (borders, glyphs, labels) is
/// dropped when cells become too small to show it, so a 10,000-cell tree
/// paints in a few milliseconds. Device coordinates = scene * scale + offset.
class TreeRenderer
{
    Q_DECLARE_TR_FUNCTIONS(TreeRenderer)
public:
    TreeRenderer();

    void setTree(std::shared_ptr<const DiscoveryTree> tree);
    /// The same with what TreeCellStyles::of(*tree) derived, perhaps on
    /// another thread (a live round's tree builder).
    void setTree(std::shared_ptr<const DiscoveryTree> tree, TreeCellStyles styles);
    const TreeLayout &layout() const { return m_layout; }
    const std::shared_ptr<const DiscoveryTree> &tree() const { return m_layout.tree(); }

    void setPalette(const TreePalette &palette) { m_palette = palette; }
    const TreePalette &palette() const { return m_palette; }
    void setSelected(int cellIndex) { m_selected = cellIndex; }
    int selected() const { return m_selected; }
    void setMatches(QSet<int> cells) { m_matches = std::move(cells); }
    const QSet<int> &matches() const { return m_matches; }
    void setOverlay(RevealOverlay overlay) { m_overlay = std::move(overlay); }
    const RevealOverlay &overlay() const { return m_overlay; }
    /// What people did to branches of a live round (steering kinds "close",
    /// "refine", "hint", in the order applied): marks under each branch's leaf.
    void setBranchMarks(QHash<int, QStringList> marks) { m_branchMarks = std::move(marks); }
    const QHash<int, QStringList> &branchMarks() const { return m_branchMarks; }
    /// The path to a cell (the inspector's Path page, docs/compare.md#the-path-to-the-best):
    /// a line from the initial program through its steps, drawn while `tree` is the tree shown.
    void setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells)
    {
        m_pathTree = std::move(tree);
        m_path = std::move(cells);
    }
    /// The path drawn now: empty when none, or when it is of another tree.
    QList<int> path() const { return m_pathTree && m_pathTree == tree() ? m_path : QList<int>(); }
    /// The marks of steering kinds: ✕ close, ⇧ refine, ✎ hint, in order.
    static QString steeringGlyphs(const QStringList &kinds);
    /// Where a branch's steering marks are drawn (device coordinates): under
    /// its leaf, clear of the frames around it (frameReach()); empty for a
    /// branch the tree has no column of.
    QRectF steeringMarkRect(int branchId, double scale, const QPointF &offset) const;
    /// How far outside a cell its outermost frame (the selection's) reaches
    /// at `scale`, in device pixels.
    double frameReach(double scale) const;
    /// Attempts running now, drawn as outlined cells (new branches in extra
    /// columns to the right), a stalled one inside a red ring. Not part of
    /// figures' legends.
    void setRunning(QList<RunningAttempt> running) { m_running = std::move(running); }
    const QList<RunningAttempt> &running() const { return m_running; }
    /// Where a running attempt is drawn (scene units).
    QRectF runningRect(const RunningAttempt &attempt) const;
    /// The running attempt drawn at `scenePos`, its ring included; none elsewhere.
    std::optional<RunningAttempt> runningAt(const QPointF &scenePos) const;
    /// The text drawn in a running attempt: "12 s" or "12/60 s", "⚠ 12 s" when stalled.
    static QString runningLabel(const RunningAttempt &attempt);
    /// The colour of a stalled attempt's ring.
    static QColor stalledColor() { return QColor(0xd6, 0x27, 0x28); }
    /// The scene: the layout's, grown by running attempts outside it.
    QRectF sceneRect() const;

    /// Range of finite scores the colour scale spans.
    double scoreMin() const { return m_scoreMin; }
    double scoreMax() const { return m_scoreMax; }
    QColor colorForScore(double score) const;
    /// The values and labels of the colour scale's `intervals` + 1 ticks,
    /// lowest first; labels as Colormap::tickLabels() writes them, so ticks
    /// of scores that differ only in the fourth decimal still read apart.
    QList<double> scaleTickValues(int intervals) const;
    QStringList scaleTickLabels(int intervals) const;
    CellStyle styleOf(int cellIndex) const;
    /// Cells drawn from the world model (an imagined completion); 0 for a recorded tree.
    int imaginedCount() const { return m_imaginedCount; }
    int probeCount() const { return m_probeCount; }
    /// The cell the best-cell mark is drawn on: the best revealed one, -1 when none scores.
    int bestCell() const { return m_best; }
    /// An imported run's forks (docs/tree-format.md#imported-runs): (fork,
    /// real parent) cell indices, drawn as a thin dashed link between them.
    const QList<std::pair<int, int>> &forkLinks() const { return m_forkLinks; }
    /// Its orphans (cells whose parent is missing from the run), drawn with a
    /// broken link above them.
    const QList<int> &orphans() const { return m_orphans; }

    /// Paints the part of the tree that falls into `exposed` (device coordinates).
    void paint(QPainter &painter, const QRectF &exposed, double scale, const QPointF &offset) const;
    /// The legend's entries, top to bottom (after the colour scale).
    QStringList legendLabels() const { return legendRows().labels; }
    /// Width and height the legend needs with the painter's current font.
    QSizeF legendSize(const QFontMetricsF &fm) const;
    void paintLegend(QPainter &painter, const QRectF &area) const;
    /// A self-contained figure: the tree as large as `target` allows, with the
    /// legend on the right or, when that leaves the tree bigger, below it. The
    /// painter's font is set to the figure font of the target's physical size.
    void paintFigure(QPainter &painter, const QRectF &target, bool withLegend = true) const;
    /// Where paintFigure() puts the tree and its legend, with text measured by `fm`.
    TreeFigureGeometry figureGeometry(const QFontMetricsF &fm, const QRectF &target, bool withLegend = true) const;
    /// The figure font of a target rectangle in FigureExport's logical units (1/FigureExport::logicalDpi() inch).
    static QFont figureFont(const QFont &base, const QRectF &target);
    /// Scale and offset that fit the whole scene into `area`.
    std::pair<double, QPointF> fitTransform(const QRectF &area) const;

private:
    struct LegendRows
    {
        QStringList labels;
        QList<FailGlyph> glyphs; ///< FailGlyph::None for the best-cell row
        int imaginedRow = -1;    ///< the row of imagined cells, -1 when the tree has none
        int probeRow = -1;       ///< the row of probe calls, -1 when the tree has none
        int forkRow = -1;        ///< an imported run's fork links, -1 without forks
        int orphanRow = -1;      ///< its orphan marks, -1 without orphans
    };
    LegendRows legendRows() const;
    QSizeF columnLegendSize(const QFontMetricsF &fm, double barLength) const;
    QSizeF bandLegendSize(const QFontMetricsF &fm, double width) const;
    void paintColumnLegend(QPainter &painter, const QRectF &area, double barLength) const;
    void paintBandLegend(QPainter &painter, const QRectF &area, double barLength) const;
    void paintLegendEntry(QPainter &painter, const QFontMetricsF &fm, const QPointF &topLeft, double width, int row,
                          const LegendRows &rows) const;
    /// An imagined cell: background, hatch and outline in `color`.
    void paintImaginedCell(QPainter &painter, const QRectF &r, const QColor &color, double cellPx) const;
    /// The corner flag of a probe call (docs/online.md#probes).
    void paintProbeFlag(QPainter &painter, const QRectF &r, bool dimmed) const;
    QImage cachedGlyph(FailGlyph glyph, const QSizeF &size, const QColor &color, qreal dpr) const;
    /// The cells of paint() when they are small and the device is raster:
    /// their fills written into one image, failure glyphs over it; marks
    /// are collected into `marked`.
    void paintSmallCells(QPainter &painter, const QRectF &exposed, const QRectF &sceneExposed, double scale,
                         const QPointF &offset, qreal dpr, bool detail, QList<std::pair<QRectF, CellStyle>> *marked) const;
    void paintLiveMarks(QPainter &painter, double scale, const QPointF &offset, bool labels) const;
    /// The pen width of the frames around marked cells of `cellPx` pixels.
    static double markWidth(double cellPx);
    /// An imported run's fork links and orphan marks (forkLinks(), orphans()).
    void paintGenealogy(QPainter &painter, const QRectF &sceneExposed, double scale, const QPointF &offset) const;
    void paintPath(QPainter &painter, double scale, const QPointF &offset) const;

    TreeLayout m_layout;
    TreePalette m_palette;
    QSet<int> m_matches;
    RevealOverlay m_overlay;
    QHash<int, QStringList> m_branchMarks;
    std::shared_ptr<const DiscoveryTree> m_pathTree;
    QList<int> m_path;
    QList<RunningAttempt> m_running;
    int m_selected = -1;
    double m_scoreMin = 0.0;
    double m_scoreMax = 1.0;
    bool m_hasScores = false;
    QList<QColor> m_fills;      ///< score colour per cell, computed once per tree
    QList<QRgb> m_fillRgb;      ///< the same as ARGB values
    QList<FailGlyph> m_glyphs;
    QMap<QString, int> m_failCounts; ///< the tree's cells per fail class (the legend's rows)
    QList<bool> m_imagined;     ///< per cell: drawn from the world model
    QList<bool> m_probe;        ///< per cell: a probe call
    int m_probeCount = 0;
    int m_imaginedFailures = 0; ///< imagined cells drawn as failures (no class)
    int m_best = -1;            ///< the best revealed cell (TreeCellStyles::best)
    QList<std::pair<int, int>> m_forkLinks;
    QList<int> m_orphans;
    int m_imaginedCount = 0;
    mutable QHash<QString, QImage> m_glyphCache;
};

} // namespace dreamrsi
