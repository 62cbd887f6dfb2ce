#pragma once

#include "model/discoverytree.h"

#include "behaviourgridview.h"
#include "imaginedorigin.h"
#include "runstructureview.h"

#include "figures/figuresource.h"

#include <QWidget>

#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;
class QLineEdit;
class QSpinBox;

namespace dreamrsi {

class TreeView;

/// The Discovery tab: the tree view with a search field and zoom controls.
///
/// On a history world of the project, **Show imagined cells** shows one
/// completion of it (docs/online.md#valuation): completion k of the world's
/// place j in the history for a seed, its imagined cells hatched and
/// outlined around the revealed ones. The page only asks (imaginedRequested)
/// and shows what it is given: the completion is drawn on a worker by the
/// window's ImaginedCells, and the recorded tree stays shown until it arrives.
class DiscoveryPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit DiscoveryPage(QWidget *parent = nullptr);

    /// Shows a recorded tree; until setImaginationContext() says where the
    /// tree is in the history, no imagined cells.
    void setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree);
    TreeView *treeView() const { return m_view; }

    /// How the tab draws the tree (docs/tree-format.md#the-genealogy-and-islands-of-an-imported-run):
    /// branches as columns (our trees' default), the genealogy (imported
    /// runs' default), islands side by side, or the behaviour grid.
    enum class Layout { Branches, Genealogy, Islands, BehaviourGrid };
    Layout layoutShown() const;
    void setLayoutShown(Layout layout);
    QComboBox *layoutBox() const { return m_layout; }
    RunStructureView *structureView() const { return m_structure; }
    BehaviourGridView *gridView() const { return m_grid; }
    /// The layout a tree opens in: the genealogy for an imported run, the
    /// branches for ours.
    static Layout defaultLayout(const DiscoveryTree &tree);
    /// Trees from this many cells have their other layouts made on a worker.
    static constexpr int PrepareOnWorkerFrom = 2000;
    /// True while a large tree's layouts are being made (layoutsPrepared() follows).
    bool preparingOnWorker() const;
    QLineEdit *searchEdit() const { return m_search; }

    /// The shown tree's place j among the project's replay worlds (-1: not a
    /// history world, the toggle is off limits) and C, the completions of the
    /// project's configuration (k runs 0 … C − 1). Asks again for the
    /// completion when the toggle is on and something changed.
    void setImaginationContext(int place, int completions);
    int imaginationPlace() const { return m_place; }
    QCheckBox *imaginedToggle() const { return m_imagined; }
    QSpinBox *completionBox() const { return m_completion; }
    QSpinBox *seedBox() const { return m_seed; }
    /// True when imagined cells are asked for (toggle on, a history world).
    bool wantsImagined() const;

    /// Shows `completion`, drawn as `draw` says, in place of the recorded tree.
    void showCompletion(std::shared_ptr<const DiscoveryTree> completion, const ImaginedDraw &draw);
    /// Drawing failed: the recorded tree stays, the reason is shown.
    void showImaginedError(const QString &error);
    /// The imagined cells' status line and, whole, its tooltip.
    void setImaginedStatus(const QString &text);
    /// Back to the recorded tree.
    void showRecorded();
    /// True while the view shows a completion rather than the recorded tree.
    bool showsImagined() const { return m_completionTree != nullptr; }
    /// The tree the view shows: the completion, or the recorded tree.
    std::shared_ptr<const DiscoveryTree> shownTree() const;
    /// Where an imagined cell of the shown completion came from (model
    /// stratum, seed, j, k), empty for a revealed cell or a recorded tree.
    QString imaginedOrigin(int cellIndex) const;

public slots:
    /// The View menu's zoom and Fit Tree, for whichever layout is shown.
    void zoomIn();
    void zoomOut();
    void fitToView();
    /// Selects a cell of the shown tree in every layout.
    void selectCell(int cellIndex);
    /// Centres a cell in the layout shown (the branches or the genealogy and
    /// islands; the behaviour grid has no place for one cell).
    void centerOn(int cellIndex);
    /// The path to a cell (the inspector's Path page, docs/compare.md#the-path-to-the-best),
    /// highlighted in the branches, the genealogy and the islands, each
    /// drawing it while `tree` is the tree it shows.
    void setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells);
    void setDarkPalette(bool dark);
    void setLegendVisible(bool visible);

signals:
    /// The toggle, k, the seed or the context changed: draw completion
    /// completionBox() of world imaginationPlace() for seedBox(), or show the
    /// recorded tree when wantsImagined() is false.
    void imaginedRequested();
    /// A completion is shown (or drawing it failed: `error`).
    void imaginedDrawn(const QString &error);
    /// The view switched between the recorded tree and a completion (cell
    /// indices mean other cells now).
    void shownTreeChanged();
    /// A large tree's genealogy, islands and grid are ready (made on a worker).
    void layoutsPrepared();

public:
    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

private:
    void runSearch();
    void requestImagined();
    void showTree(std::shared_ptr<const DiscoveryTree> tree);

    TreeView *m_view = nullptr;
    QComboBox *m_layout = nullptr;
    QStackedWidget *m_stack = nullptr;
    RunStructureView *m_structure = nullptr;
    BehaviourGridView *m_grid = nullptr;
    QLineEdit *m_search = nullptr;
    QLabel *m_title = nullptr;
    QString m_name; ///< the tree's title, the figure's name
    QLabel *m_status = nullptr;
    std::shared_ptr<const DiscoveryTree> m_tree; ///< the recorded tree
    std::shared_ptr<const DiscoveryTree> m_shownTree; ///< what the layouts show: m_tree or the completion
    bool m_defaultPending = false; ///< a new tree: choose its default layout when shown
    quint64 m_preparing = 0;       ///< the latest request for a worker's layouts
    struct Prepared
    {
        RunStructureView::Prepared structure;
        BehaviourGridView::Prepared grid;
    };
    // Imagined cells
    QCheckBox *m_imagined = nullptr;
    bool m_imaginedWanted = false; ///< ticked by the person (kept across worlds that cannot show it)
    QSpinBox *m_completion = nullptr;
    QSpinBox *m_seed = nullptr;
    QLabel *m_imaginedStatus = nullptr;
    int m_place = -1;
    std::shared_ptr<const DiscoveryTree> m_completionTree; ///< the completion shown, null when none
    ImaginedDraw m_draw;                                   ///< where it came from
};

} // namespace dreamrsi
