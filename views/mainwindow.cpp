#include "mainwindow.h"

#include "celltablemodel.h"
#include "model/treejson.h"
#include "model/treesummary.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
constexpr int MaxRecentFiles = 10;
const auto RecentFilesKey = "recentFiles";
const auto GeometryKey = "mainWindow/geometry";
const auto StateKey = "mainWindow/state";
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("Dream-RSI Workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_cellModel = new CellTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_cellModel);
    m_proxy->setSortRole(CellTableModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    auto *cellsPage = new QWidget;
    auto *layout = new QVBoxLayout(cellsPage);
    auto *filterRow = new QHBoxLayout;
    m_treeLabel = new QLabel(tr("No tree open. Open a tree file (Ctrl+O) or drop one here."));
    m_treeLabel->setWordWrap(true);
    m_filterEdit = new QLineEdit;
    m_filterEdit->setPlaceholderText(tr("Filter cells (id, tag, outcome, error…)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterColumn = new QComboBox;
    m_filterColumn->addItem(tr("All columns"), -1);
    for (int c = 0; c < CellTableModel::ColumnCount; ++c)
        m_filterColumn->addItem(m_cellModel->headerData(c, Qt::Horizontal).toString(), c);
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_filterColumn);
    layout->addWidget(m_treeLabel);
    layout->addLayout(filterRow);
    m_cellView = new QTableView;
    m_cellView->setModel(m_proxy);
    m_cellView->setSortingEnabled(true);
    m_cellView->sortByColumn(CellTableModel::Seq, Qt::AscendingOrder);
    m_cellView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_cellView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_cellView->setAlternatingRowColors(true);
    m_cellView->verticalHeader()->hide();
    m_cellView->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_cellView, 1);
    connect(m_filterEdit, &QLineEdit::textChanged, this, &MainWindow::applyFilter);
    connect(m_filterColumn, &QComboBox::currentIndexChanged, this, &MainWindow::applyFilter);
    connect(m_cellView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) { showCell(current); });

    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(cellsPage, tr("Cells"));
    setCentralWidget(m_tabs);

    createDocks();
    createActions();
    statusBar()->showMessage(tr("Ready"));

    QSettings settings;
    restoreGeometry(settings.value(QLatin1String(GeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(StateKey)).toByteArray());
    if (!settings.contains(QLatin1String(GeometryKey)))
        resize(1280, 800);
    rebuildRecentMenu();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::createDocks()
{
    auto *worldDock = new QDockWidget(tr("Worlds"), this);
    worldDock->setObjectName(QStringLiteral("worldsDock"));
    m_worldList = new QListWidget;
    m_worldList->setAlternatingRowColors(true);
    worldDock->setWidget(m_worldList);
    addDockWidget(Qt::LeftDockWidgetArea, worldDock);
    connect(m_worldList, &QListWidget::currentRowChanged, this, &MainWindow::showTree);

    auto *inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspector = new QTextBrowser;
    m_inspector->setPlaceholderText(tr("Select a cell to see its fields."));
    inspectorDock->setWidget(m_inspector);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);

    QAction *open = file->addAction(QIcon::fromTheme(QStringLiteral("document-open")), tr("&Open Tree…"));
    open->setObjectName(QStringLiteral("actionOpen"));
    open->setShortcut(QKeySequence::Open);
    open->setStatusTip(tr("Open discovery-tree files (dreamrsi-tree/1 JSON)"));
    connect(open, &QAction::triggered, this, [this] {
        QSettings settings;
        const QStringList paths = QFileDialog::getOpenFileNames(
            this, tr("Open Discovery Trees"), settings.value(QStringLiteral("lastDir")).toString(),
            tr("Discovery trees (*.json);;All files (*)"));
        if (!paths.isEmpty()) {
            settings.setValue(QStringLiteral("lastDir"), QFileInfo(paths.first()).absolutePath());
            openFiles(paths);
        }
    });
    toolbar->addAction(open);

    m_recentMenu = file->addMenu(tr("Open &Recent"));

    m_closeAction = file->addAction(QIcon::fromTheme(QStringLiteral("document-close")), tr("&Close Tree"));
    m_closeAction->setObjectName(QStringLiteral("actionClose"));
    m_closeAction->setShortcut(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeCurrentTree);

    file->addSeparator();
    QAction *quit = file->addAction(QIcon::fromTheme(QStringLiteral("application-exit")), tr("&Quit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addAction(toolbar->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About Dream-RSI Workbench"));
    connect(about, &QAction::triggered, this, [this] {
        QMessageBox::about(this, tr("About Dream-RSI Workbench"),
                           tr("<p><b>Dream-RSI Workbench</b> %1</p><p>Replay-based recursive self-improvement "
                              "of exploration policies for LLM-driven program discovery.</p>")
                               .arg(QCoreApplication::applicationVersion()));
    });
}

void MainWindow::openFiles(const QStringList &paths)
{
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        ++m_pendingLoads;
        statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        auto *watcher = new QFutureWatcher<TreeJson::ParseResult>(this);
        connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, absolute] {
            watcher->deleteLater();
            --m_pendingLoads;
            TreeJson::ParseResult result = watcher->result();
            if (!result.ok()) {
                statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
                emit openFailed(absolute, result.error.message);
                auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open tree"),
                                            tr("The file was rejected; nothing of it was loaded."),
                                            QMessageBox::Ok, this);
                box->setInformativeText(result.error.message);
                box->setAttribute(Qt::WA_DeleteOnClose);
                box->open();
                return;
            }
            addTree(absolute, std::make_shared<const DiscoveryTree>(std::move(*result.tree)));
        });
        watcher->setFuture(QtConcurrent::run([absolute] { return TreeJson::readFile(absolute); }));
    }
}

void MainWindow::addTree(const QString &path, std::shared_ptr<const DiscoveryTree> tree)
{
    for (int i = 0; i < m_trees.size(); ++i) {
        if (m_trees.at(i).path == path) { // reopening replaces the stale copy
            m_trees[i].tree = tree;
            m_worldList->setCurrentRow(i);
            showTree(i);
            addRecentFile(path);
            emit treeOpened(path);
            return;
        }
    }
    m_trees.append({path, tree});
    auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_worldList);
    item->setToolTip(path + QLatin1Char('\n') + summarizeTree(*tree));
    m_worldList->setCurrentRow(int(m_trees.size()) - 1);
    addRecentFile(path);
    statusBar()->showMessage(tr("Opened %1: %2 cells").arg(QFileInfo(path).fileName()).arg(tree->cellCount()), 5000);
    updateActions();
    emit treeOpened(path);
}

std::shared_ptr<const DiscoveryTree> MainWindow::currentTree() const
{
    const int row = m_worldList->currentRow();
    return row >= 0 && row < m_trees.size() ? m_trees.at(row).tree : nullptr;
}

void MainWindow::showTree(int row)
{
    if (row < 0 || row >= m_trees.size()) {
        m_cellModel->setTree(nullptr);
        m_treeLabel->setText(tr("No tree open. Open a tree file (Ctrl+O) or drop one here."));
        m_inspector->clear();
        updateActions();
        return;
    }
    const OpenTree &t = m_trees.at(row);
    m_cellModel->setTree(t.tree);
    m_cellView->resizeColumnsToContents();
    m_treeLabel->setText(QStringLiteral("<b>%1</b> — %2")
                             .arg(QFileInfo(t.path).fileName().toHtmlEscaped(), summarizeTree(*t.tree).toHtmlEscaped()));
    setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(QFileInfo(t.path).fileName()));
    updateActions();
}

void MainWindow::showCell(const QModelIndex &proxyIndex)
{
    const auto tree = m_cellModel->tree();
    if (!tree || !proxyIndex.isValid()) {
        m_inspector->clear();
        return;
    }
    const int index = m_proxy->mapToSource(proxyIndex).row();
    const Cell &c = tree->cells().at(index);
    QString html = QStringLiteral("<h3>%1</h3><table>").arg(c.id.toHtmlEscaped());
    auto row = [&html](const QString &k, const QString &v) {
        html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v.toHtmlEscaped());
    };
    row(tr("Branch / attempt"), QStringLiteral("%1 / %2").arg(c.branch).arg(c.attempt));
    row(tr("Seq"), QString::number(c.seq));
    row(tr("Score"), c.score ? QString::number(*c.score, 'g', 12) : tr("none"));
    row(tr("Outcome"), c.failClass);
    row(tr("Tags"), c.tags.join(QStringLiteral(", ")));
    if (c.error)
        row(tr("Error"), *c.error);
    html += QStringLiteral("</table>");
    if (!c.proposal().isEmpty())
        html += QStringLiteral("<h4>%1</h4><p>%2</p>").arg(tr("Proposal"), c.proposal().toHtmlEscaped());
    if (!c.program().isEmpty())
        html += QStringLiteral("<h4>%1</h4><pre>%2</pre>").arg(tr("Program"), c.program().toHtmlEscaped());
    m_inspector->setHtml(html);
}

void MainWindow::closeCurrentTree()
{
    const int row = m_worldList->currentRow();
    if (row < 0)
        return;
    m_trees.removeAt(row);
    delete m_worldList->takeItem(row);
    showTree(m_worldList->currentRow());
    updateActions();
}

void MainWindow::applyFilter()
{
    m_proxy->setFilterKeyColumn(m_filterColumn->currentData().toInt());
    m_proxy->setFilterFixedString(m_filterEdit->text());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QLatin1String(RecentFilesKey)).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > MaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QLatin1String(RecentFilesKey), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString &path : files) {
        QAction *a = m_recentMenu->addAction(QFileInfo(path).fileName());
        a->setToolTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openFiles({path}); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        connect(m_recentMenu->addAction(tr("Clear List")), &QAction::triggered, this, [this] {
            QSettings().remove(QLatin1String(RecentFilesKey));
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateActions()
{
    m_closeAction->setEnabled(m_worldList->currentRow() >= 0);
    m_filterEdit->setEnabled(m_cellModel->tree() != nullptr);
    m_filterColumn->setEnabled(m_cellModel->tree() != nullptr);
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QLatin1String(GeometryKey), saveGeometry());
    settings.setValue(QLatin1String(StateKey), saveState());
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    QStringList paths;
    for (const QUrl &url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            paths.append(url.toLocalFile());
    }
    if (!paths.isEmpty()) {
        openFiles(paths);
        event->acceptProposedAction();
    }
}

} // namespace dreamrsi
