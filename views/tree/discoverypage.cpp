#include "discoverypage.h"

#include "figures/figuredata.h"
#include "treerenderer.h"
#include "models/treesummarytext.h"
#include "treeview.h"
#include "behaviourgridview.h"
#include "runstructureview.h"

#include "replay/worldmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QStackedWidget>
#include <QHBoxLayout>
#include <QLabel>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QPointer>
#include <QSpinBox>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

DiscoveryPage::DiscoveryPage(QWidget *parent)
    : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *row = new QHBoxLayout;
    m_title = new QLabel;
    m_title->setTextFormat(Qt::RichText);
    m_title->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Find cells by id or tag"));
    m_search->setClearButtonEnabled(true);
    m_search->setMinimumWidth(220);
    m_search->setMaximumWidth(320);
    m_status = new QLabel;
    m_layout = new QComboBox;
    m_layout->setObjectName(QStringLiteral("discoveryLayout"));
    m_layout->addItem(tr("Branches"), int(Layout::Branches));
    m_layout->addItem(tr("Genealogy"), int(Layout::Genealogy));
    m_layout->addItem(tr("Islands"), int(Layout::Islands));
    m_layout->addItem(tr("Behaviour grid"), int(Layout::BehaviourGrid));
    m_layout->setToolTip(tr("Branches: each branch a column, as rounds grow them. Genealogy: every program under "
                            "its real parent, generations as rows (an imported run's default). Islands: the "
                            "genealogy by island, with migrations between them. Behaviour grid: the cells binned "
                            "by two metrics."));
    row->addWidget(m_title, 1);
    row->addWidget(m_status);
    row->addWidget(m_layout);
    row->addWidget(m_search);
    layout->addLayout(row);

    // Imagined cells of a history world.
    auto *imagination = new QHBoxLayout;
    m_imagined = new QCheckBox(tr("Show &imagined cells"));
    m_imagined->setObjectName(QStringLiteral("showImaginedCells"));
    m_imagined->setToolTip(tr("Draw one imagined completion of this history world around its revealed cells: every "
                              "cell of its grid the deployed policy did not reveal, drawn from the world model fitted "
                              "over the project's replay worlds (as a dream values versions)."));
    m_completion = new QSpinBox;
    m_completion->setObjectName(QStringLiteral("imaginedCompletion"));
    m_completion->setPrefix(tr("completion k = "));
    m_completion->setRange(0, 7);
    m_completion->setToolTip(tr("Which completion k of the project's C to draw"));
    m_seed = new QSpinBox;
    m_seed->setObjectName(QStringLiteral("imaginedSeed"));
    m_seed->setPrefix(tr("seed "));
    m_seed->setRange(0, 1000000000);
    m_seed->setToolTip(tr("The dream's seed the completions are drawn with (a dream's --seed; replays use 0)"));
    m_imaginedStatus = new QLabel;
    m_imaginedStatus->setObjectName(QStringLiteral("imaginedStatus"));
    // A long status (an error's text) is cut at the page's edge, never
    // widening the window; the whole of it is the tooltip.
    m_imaginedStatus->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    imagination->addWidget(m_imagined);
    imagination->addWidget(m_completion);
    imagination->addWidget(m_seed);
    imagination->addWidget(m_imaginedStatus, 1);
    layout->addLayout(imagination);
    // What the person asked for outlives a world that cannot show it: ticked
    // on one history world, it is ticked again on the next.
    connect(m_imagined, &QCheckBox::toggled, this, [this](bool on) { m_imaginedWanted = on; });
    connect(m_imagined, &QCheckBox::toggled, this, &DiscoveryPage::requestImagined);
    connect(m_completion, &QSpinBox::valueChanged, this, &DiscoveryPage::requestImagined);
    connect(m_seed, &QSpinBox::valueChanged, this, &DiscoveryPage::requestImagined);

    m_view = new TreeView;
    m_structure = new RunStructureView;
    m_structure->setObjectName(QStringLiteral("runStructureView"));
    m_grid = new BehaviourGridView;
    m_grid->setObjectName(QStringLiteral("behaviourGridView"));
    m_stack = new QStackedWidget;
    m_stack->addWidget(m_view);
    m_stack->addWidget(m_structure);
    m_stack->addWidget(m_grid);
    layout->addWidget(m_stack, 1);
    // A cell picked in another layout is inspected as one picked in the tree view.
    connect(m_structure, &RunStructureView::cellActivated, m_view, &TreeView::cellActivated);
    connect(m_grid, &BehaviourGridView::cellActivated, m_view, &TreeView::cellActivated);
    connect(m_layout, &QComboBox::currentIndexChanged, this, [this] { setLayoutShown(layoutShown()); });
    connect(m_search, &QLineEdit::textChanged, this, &DiscoveryPage::runSearch);
    connect(m_search, &QLineEdit::returnPressed, this, &DiscoveryPage::runSearch);
    setImaginationContext(-1, 8); // no history world until the window says so
}

void DiscoveryPage::setTree(const QString &title, std::shared_ptr<const DiscoveryTree> tree)
{
    m_name = title;
    m_title->setText(tree ? QStringLiteral("<b>%1</b> — %2").arg(title.toHtmlEscaped(), TreeSummaryText::of(*tree).toHtmlEscaped())
                          : QString());
    m_tree = tree;
    m_defaultPending = true;
    // Where this tree is in the history comes next (setImaginationContext).
    m_completionTree.reset();
    m_draw = {};
    showTree(std::move(tree));
    setImaginationContext(-1, m_completion->maximum() + 1);
}

void DiscoveryPage::showTree(std::shared_ptr<const DiscoveryTree> tree)
{
    // The other layouts are made when first shown, on the GUI thread for a
    // small tree, on a worker for a large one (its layouts, styles and
    // metrics take longer than a frame): the views say so meanwhile.
    // A large imported run opens in its genealogy: its branch view's styles
    // are made on the worker too (our own trees open in branches, at once).
    const bool large = tree && tree->cellCount() >= PrepareOnWorkerFrom;
    const bool branchesLater = large && defaultLayout(*tree) != Layout::Branches && m_defaultPending;
    m_view->setTree(branchesLater ? nullptr : tree);
    m_structure->setTree(nullptr);
    m_grid->setTree(nullptr);
    m_shownTree = std::move(tree);
    ++m_preparing;
    if (large) {
        const QString text = tr("Laying out %Ln cell(s)…", nullptr, m_shownTree->cellCount());
        m_structure->setPlaceholderText(text);
        m_grid->setPlaceholderText(text);
        auto *watcher = new QFutureWatcher<Prepared>(this);
        connect(watcher, &QFutureWatcher<Prepared>::finished, this, [this, watcher, request = m_preparing] {
            watcher->deleteLater();
            if (request != m_preparing)
                return; // another tree came meanwhile
            Prepared prepared = watcher->result();
            if (m_view->tree() != m_shownTree) {
                m_view->setTree(m_shownTree, prepared.structure.styles);
                runSearch();
            }
            m_structure->setPrepared(std::move(prepared.structure));
            m_structure->setMatches(m_view->renderer().matches());
            m_structure->selectCell(m_view->selectedCell());
            m_grid->setPrepared(std::move(prepared.grid));
            m_structure->setPlaceholderText(QString());
            m_grid->setPlaceholderText(QString());
            emit layoutsPrepared();
        });
        watcher->setFuture(QtConcurrent::run([tree = m_shownTree] {
            const auto structure = std::make_shared<const RunStructure>(RunStructure::of(*tree));
            return Prepared{RunStructureView::prepare(tree, structure), BehaviourGridView::prepare(tree, structure)};
        }));
    } else {
        m_structure->setPlaceholderText(QString());
        m_grid->setPlaceholderText(QString());
    }
    if (m_shownTree && m_completionTree == nullptr && m_shownTree == m_tree && m_defaultPending) {
        m_defaultPending = false;
        const QSignalBlocker block(m_layout);
        m_layout->setCurrentIndex(m_layout->findData(int(defaultLayout(*m_shownTree))));
    }
    setLayoutShown(layoutShown());
    runSearch();
}

bool DiscoveryPage::preparingOnWorker() const
{
    return m_shownTree && m_shownTree->cellCount() >= PrepareOnWorkerFrom && m_structure->tree() != m_shownTree;
}

DiscoveryPage::Layout DiscoveryPage::defaultLayout(const DiscoveryTree &tree)
{
    return tree.meta().payload.contains(QLatin1String("imported_from")) ? Layout::Genealogy : Layout::Branches;
}

DiscoveryPage::Layout DiscoveryPage::layoutShown() const
{
    return Layout(m_layout->currentData().toInt());
}

void DiscoveryPage::setLayoutShown(Layout layout)
{
    if (layoutShown() != layout) {
        const QSignalBlocker block(m_layout);
        m_layout->setCurrentIndex(m_layout->findData(int(layout)));
    }
    switch (layout) {
    case Layout::Branches:
        m_stack->setCurrentWidget(m_view);
        break;
    case Layout::Genealogy:
    case Layout::Islands:
        m_structure->setMode(layout == Layout::Islands ? GenealogyLayout::Mode::Islands : GenealogyLayout::Mode::Genealogy);
        if (m_structure->tree() != m_shownTree && !preparingOnWorker()) {
            m_structure->setTree(m_shownTree);
            m_structure->setMatches(m_view->renderer().matches());
            m_structure->selectCell(m_view->selectedCell());
        }
        m_stack->setCurrentWidget(m_structure);
        break;
    case Layout::BehaviourGrid:
        if (m_grid->tree() != m_shownTree && !preparingOnWorker())
            m_grid->setTree(m_shownTree);
        m_stack->setCurrentWidget(m_grid);
        break;
    }
}

void DiscoveryPage::zoomIn()
{
    if (m_stack->currentWidget() == m_structure)
        m_structure->zoomIn();
    else
        m_view->zoomIn();
}

void DiscoveryPage::zoomOut()
{
    if (m_stack->currentWidget() == m_structure)
        m_structure->zoomOut();
    else
        m_view->zoomOut();
}

void DiscoveryPage::fitToView()
{
    if (m_stack->currentWidget() == m_structure)
        m_structure->fitToView();
    else
        m_view->fitToView();
}

void DiscoveryPage::selectCell(int cellIndex)
{
    m_view->selectCell(cellIndex);
    if (m_structure->tree())
        m_structure->selectCell(cellIndex);
}

void DiscoveryPage::centerOn(int cellIndex)
{
    if (m_stack->currentWidget() == m_structure)
        m_structure->centerOn(cellIndex);
    else
        m_view->centerOn(cellIndex);
}

void DiscoveryPage::setPath(std::shared_ptr<const DiscoveryTree> tree, QList<int> cells)
{
    // Both keep it: a layout switched to later shows the path too.
    m_view->setPath(tree, cells);
    m_structure->setPath(std::move(tree), std::move(cells));
}

void DiscoveryPage::setDarkPalette(bool dark)
{
    m_view->setDarkPalette(dark);
    m_structure->setDarkPalette(dark);
    m_grid->setDarkPalette(dark);
}

void DiscoveryPage::setLegendVisible(bool visible)
{
    m_view->setLegendVisible(visible);
    m_structure->setLegendVisible(visible);
}

std::shared_ptr<const DiscoveryTree> DiscoveryPage::shownTree() const
{
    return m_completionTree ? m_completionTree : m_tree;
}

void DiscoveryPage::setImaginationContext(int place, int completions)
{
    const int c = std::max(1, completions);
    const bool changed = place != m_place || m_completion->maximum() != c - 1;
    m_place = place;
    const bool usable = m_place >= 0 && m_tree;
    m_imagined->setEnabled(usable);
    if (usable && m_imaginedWanted && !m_imagined->isChecked()) {
        const QSignalBlocker block(m_imagined);
        m_imagined->setChecked(true); // drawn below: the place changed
    }
    if (!usable && m_imagined->isChecked()) {
        // Greyed out means off: not ticked while it cannot apply (requestImagined shows the plain tree).
        const QSignalBlocker block(m_imagined);
        m_imagined->setChecked(false);
    }
    m_completion->setEnabled(usable);
    m_seed->setEnabled(usable);
    {
        const QSignalBlocker block(m_completion);
        m_completion->setRange(0, c - 1);
        m_completion->setSuffix(tr(" of %1").arg(c));
    }
    m_imagined->setToolTip(usable ? tr("Draw one imagined completion of this history world around its revealed cells: "
                                       "every cell of its grid the deployed policy did not reveal, drawn from the world "
                                       "model fitted over the project's replay worlds (as a dream values versions).")
                                  : tr("Imagined cells are drawn for the project's history worlds (its finished "
                                       "iterations) only."));
    if (changed || !usable)
        requestImagined();
}

bool DiscoveryPage::wantsImagined() const
{
    return m_imagined->isChecked() && m_place >= 0 && m_tree;
}

void DiscoveryPage::requestImagined()
{
    if (!wantsImagined()) {
        setImaginedStatus(m_imagined->isChecked() && m_tree && m_place < 0 ? tr("not a history world of the project")
                                                                                  : QString());
        showRecorded();
    } else {
        setImaginedStatus(tr("drawing completion %1…").arg(m_completion->value()));
    }
    emit imaginedRequested();
}

void DiscoveryPage::showCompletion(std::shared_ptr<const DiscoveryTree> completion, const ImaginedDraw &draw)
{
    if (!completion)
        return showImaginedError(tr("no completion"));
    int imagined = 0;
    for (const Cell &c : completion->cells())
        imagined += Imagination::isImagined(c) ? 1 : 0;
    m_completionTree = std::move(completion);
    m_draw = draw;
    showTree(m_completionTree);
    emit shownTreeChanged();
    setImaginedStatus(tr("%n imagined cell(s): completion k = %1 of world j = %2, seed %3", nullptr, imagined)
                                  .arg(draw.completion)
                                  .arg(draw.world)
                                  .arg(draw.seed));
    emit imaginedDrawn(QString());
}

void DiscoveryPage::showImaginedError(const QString &error)
{
    setImaginedStatus(tr("cannot draw imagined cells: %1").arg(error));
    emit imaginedDrawn(error);
}

void DiscoveryPage::showRecorded()
{
    if (!m_completionTree)
        return;
    m_completionTree.reset();
    m_draw = {};
    showTree(m_tree);
    emit shownTreeChanged();
}

QString DiscoveryPage::imaginedOrigin(int cellIndex) const
{
    return m_completionTree ? ImaginedOrigin::describe(*m_completionTree, cellIndex, m_draw) : QString();
}

void DiscoveryPage::runSearch()
{
    const QString text = m_search->text().trimmed();
    const int found = m_view->search(text);
    if (m_structure->tree())
        m_structure->setMatches(m_view->renderer().matches());
    m_status->setText(text.isEmpty() ? QString() : tr("%n match(es)", nullptr, found));
}

QString DiscoveryPage::figureName() const
{
    const QString name = m_name.isEmpty() ? tr("Discovery tree") : m_name;
    return m_stack->currentWidget() == m_view ? name : tr("%1 (%2)").arg(name, m_layout->currentText().toLower());
}

FigureExport::Painter DiscoveryPage::figurePainter()
{
    // The export dialog paints while it is open, over the layout shown now.
    if (m_stack->currentWidget() == m_structure) {
        if (!m_structure->tree())
            return {};
        return [view = QPointer<RunStructureView>(m_structure)](QPainter &p, const QRectF &area) {
            if (view)
                view->paintFigure(p, area);
        };
    }
    if (m_stack->currentWidget() == m_grid) {
        if (!m_grid->grid())
            return {};
        return [grid = QPointer<BehaviourGridView>(m_grid)](QPainter &p, const QRectF &area) {
            if (grid)
                grid->paintFigure(p, area);
        };
    }
    if (!m_view->tree())
        return {};
    TreeRenderer renderer = m_view->renderer();
    renderer.setPalette(TreePalette::light());
    renderer.setSelected(-1);
    return [renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); };
}

FigureTable DiscoveryPage::figureData() const
{
    if (m_stack->currentWidget() == m_grid)
        return m_grid->figureData();
    const std::shared_ptr<const DiscoveryTree> tree = m_view->tree();
    return tree ? FigureData::tree(m_completionTree ? tr("%1, imagined completion %2").arg(m_name).arg(m_draw.completion) : m_name,
                                   *tree)
                : FigureTable{};
}

void DiscoveryPage::setImaginedStatus(const QString &text)
{
    m_imaginedStatus->setText(text);
    m_imaginedStatus->setToolTip(text);
}

} // namespace dreamrsi
