#include "mainwindow.h"

#include "celltablemodel.h"
#include "discoverypage.h"
#include "exportdialog.h"
#include "figureexport.h"
#include "inspectorwidget.h"
#include "model/treejson.h"
#include "model/treesummary.h"
#include "projecttreemodel.h"
#include "settingsdialog.h"
#include "treeview.h"
#include "workspace.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QStyle>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
constexpr int MaxRecentFiles = 10;
const auto RecentFilesKey = "recentFiles";
const auto GeometryKey = "mainWindow/geometry";
const auto StateKey = "mainWindow/state";

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1e, 0x1f, 0x22);
    const QColor text(0xe6, 0xe6, 0xe6);
    const QColor disabled(0x80, 0x80, 0x80);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x3f, 0x44));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x55, 0x55));
    p.setColor(QPalette::Link, QColor(0x4d, 0xb8, 0xff));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x40, 0x42, 0x46));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1b));
    p.setColor(QPalette::Light, QColor(0x45, 0x48, 0x4d));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette lightPalette()
{
    QPalette p = QStyleFactory::create(QStringLiteral("Fusion"))->standardPalette();
    p.setColor(QPalette::AlternateBase, QColor(0xf3, 0xf5, 0xf8));
    return p;
}
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_workspace(new Workspace(this))
    , m_settings(AppSettings::load())
{
    setWindowTitle(tr("Dream-RSI Workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);

    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_discovery = new DiscoveryPage;
    m_tabs->addTab(m_discovery, tr("Discovery"));
    m_tabs->addTab(createCellsPage(), tr("Cells"));
    setCentralWidget(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);

    createDocks();
    createActions();
    statusBar()->showMessage(tr("Ready"));

    connect(m_discovery->treeView(), &TreeView::cellActivated, this, &MainWindow::inspectCell);
    connect(m_workspace, &Workspace::worldsChanged, this, [this] {
        if (m_currentWorld >= m_workspace->worlds().size())
            m_currentWorld = int(m_workspace->worlds().size()) - 1;
        showWorld(m_currentWorld);
    });

    QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(GeometryKey)).toByteArray()))
        resize(1400, 860);
    if (!restoreState(settings.value(QLatin1String(StateKey)).toByteArray())) {
        const auto docks = findChildren<QDockWidget *>();
        QList<QDockWidget *> sides;
        QList<int> widths;
        for (QDockWidget *d : docks) {
            sides.append(d);
            widths.append(d->objectName() == QLatin1String("inspectorDock") ? 460 : 250);
        }
        resizeDocks(sides, widths, Qt::Horizontal);
    }
    rebuildRecentMenu();
    applyTheme();
    updateActions();
}

MainWindow::~MainWindow() = default;

QWidget *MainWindow::createCellsPage()
{
    m_cellModel = new CellTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_cellModel);
    m_proxy->setSortRole(CellTableModel::SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);

    auto *page = new QWidget;
    auto *layout = new QVBoxLayout(page);
    layout->setContentsMargins(4, 4, 4, 4);
    auto *filterRow = new QHBoxLayout;
    m_cellsLabel = new QLabel;
    m_cellsLabel->setWordWrap(true);
    m_filterEdit = new QLineEdit;
    m_filterEdit->setPlaceholderText(tr("Filter cells (id, tag, outcome, error…)"));
    m_filterEdit->setClearButtonEnabled(true);
    m_filterColumn = new QComboBox;
    m_filterColumn->addItem(tr("All columns"), -1);
    for (int c = 0; c < CellTableModel::ColumnCount; ++c)
        m_filterColumn->addItem(m_cellModel->headerData(c, Qt::Horizontal).toString(), c);
    filterRow->addWidget(m_filterEdit, 1);
    filterRow->addWidget(m_filterColumn);
    layout->addWidget(m_cellsLabel);
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
    connect(m_cellView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        if (current.isValid())
            inspectCell(m_proxy->mapToSource(current).row());
    });
    return page;
}

void MainWindow::createDocks()
{
    auto *projectDock = new QDockWidget(tr("Project"), this);
    projectDock->setObjectName(QStringLiteral("projectDock"));
    m_projectModel = new ProjectTreeModel(m_workspace, this);
    m_projectView = new QTreeView;
    m_projectView->setModel(m_projectModel);
    m_projectView->setHeaderHidden(true);
    m_projectView->expandAll();
    projectDock->setWidget(m_projectView);
    addDockWidget(Qt::LeftDockWidgetArea, projectDock);
    connect(m_projectModel, &QAbstractItemModel::rowsInserted, m_projectView, [this](const QModelIndex &parent) {
        m_projectView->expand(parent);
    });
    connect(m_projectView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &current) {
        if (current.data(ProjectTreeModel::KindRole).toInt() == ProjectTreeModel::WorldItem)
            setCurrentWorld(current.data(ProjectTreeModel::RowRole).toInt());
    });

    auto *inspectorDock = new QDockWidget(tr("Inspector"), this);
    inspectorDock->setObjectName(QStringLiteral("inspectorDock"));
    m_inspector = new InspectorWidget;
    inspectorDock->setWidget(m_inspector);
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
}

void MainWindow::createActions()
{
    QToolBar *toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolBar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    auto icon = [this](const char *theme, QStyle::StandardPixmap fallback) {
        return QIcon::fromTheme(QLatin1String(theme), style()->standardIcon(fallback));
    };

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(icon("document-open", QStyle::SP_DialogOpenButton), tr("&Open Tree…"));
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
    file->addSeparator();
    m_exportAction = file->addAction(icon("document-save-as", QStyle::SP_DialogSaveButton), tr("&Export Figure…"));
    m_exportAction->setObjectName(QStringLiteral("actionExport"));
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    m_exportAction->setStatusTip(tr("Export the current tab's figure to PDF, SVG or PNG"));
    connect(m_exportAction, &QAction::triggered, this, &MainWindow::exportFigureInteractive);
    toolbar->addAction(m_exportAction);
    m_closeAction = file->addAction(icon("document-close", QStyle::SP_DialogCloseButton), tr("&Close World"));
    m_closeAction->setObjectName(QStringLiteral("actionClose"));
    m_closeAction->setShortcut(QKeySequence::Close);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeCurrentWorld);
    file->addSeparator();
    QAction *quit = file->addAction(icon("application-exit", QStyle::SP_DialogCloseButton), tr("&Quit"));
    quit->setObjectName(QStringLiteral("actionQuit"));
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    m_findAction = edit->addAction(icon("edit-find", QStyle::SP_FileDialogContentsView), tr("&Find Cells…"));
    m_findAction->setObjectName(QStringLiteral("actionFind"));
    m_findAction->setShortcut(QKeySequence::Find);
    connect(m_findAction, &QAction::triggered, this, [this] {
        if (m_tabs->currentIndex() == CellsTab) {
            m_filterEdit->setFocus();
            m_filterEdit->selectAll();
        } else {
            m_tabs->setCurrentIndex(DiscoveryTab);
            m_discovery->searchEdit()->setFocus();
            m_discovery->searchEdit()->selectAll();
        }
    });
    edit->addSeparator();
    QAction *prefs = edit->addAction(icon("preferences-system", QStyle::SP_FileDialogDetailedView), tr("&Settings…"));
    prefs->setObjectName(QStringLiteral("actionSettings"));
    prefs->setShortcut(QKeySequence::Preferences);
    prefs->setMenuRole(QAction::PreferencesRole);
    connect(prefs, &QAction::triggered, this, &MainWindow::editSettings);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    TreeView *tree = m_discovery->treeView();
    m_zoomInAction = view->addAction(icon("zoom-in", QStyle::SP_ArrowUp), tr("Zoom &In"));
    m_zoomInAction->setObjectName(QStringLiteral("actionZoomIn"));
    m_zoomInAction->setShortcut(QKeySequence::ZoomIn);
    connect(m_zoomInAction, &QAction::triggered, tree, &TreeView::zoomIn);
    m_zoomOutAction = view->addAction(icon("zoom-out", QStyle::SP_ArrowDown), tr("Zoom &Out"));
    m_zoomOutAction->setObjectName(QStringLiteral("actionZoomOut"));
    m_zoomOutAction->setShortcut(QKeySequence::ZoomOut);
    connect(m_zoomOutAction, &QAction::triggered, tree, &TreeView::zoomOut);
    m_fitAction = view->addAction(icon("zoom-fit-best", QStyle::SP_TitleBarMaxButton), tr("&Fit Tree"));
    m_fitAction->setObjectName(QStringLiteral("actionFit"));
    m_fitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(m_fitAction, &QAction::triggered, tree, &TreeView::fitToView);
    m_legendAction = view->addAction(tr("Show &Legend"));
    m_legendAction->setObjectName(QStringLiteral("actionLegend"));
    m_legendAction->setCheckable(true);
    m_legendAction->setChecked(true);
    m_legendAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_legendAction, &QAction::toggled, tree, &TreeView::setLegendVisible);
    m_darkAction = view->addAction(tr("&Dark Theme"));
    m_darkAction->setObjectName(QStringLiteral("actionDark"));
    m_darkAction->setCheckable(true);
    m_darkAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
    connect(m_darkAction, &QAction::triggered, this, [this](bool dark) {
        AppSettings s = m_settings;
        s.theme = dark ? AppSettings::Theme::Dark : AppSettings::Theme::Light;
        applySettings(s);
    });
    view->addSeparator();
    toolbar->addSeparator();
    toolbar->addAction(m_zoomInAction);
    toolbar->addAction(m_zoomOutAction);
    toolbar->addAction(m_fitAction);
    QMenu *tabsMenu = view->addMenu(tr("&Go to Tab"));
    for (int i = 0; i < m_tabs->count(); ++i) {
        QAction *a = tabsMenu->addAction(m_tabs->tabText(i));
        a->setObjectName(QStringLiteral("actionTab%1").arg(i + 1));
        a->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] { m_tabs->setCurrentIndex(i); });
    }
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
    view->addAction(toolbar->toggleViewAction());

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *about = help->addAction(tr("&About Dream-RSI Workbench"));
    about->setObjectName(QStringLiteral("actionAbout"));
    about->setMenuRole(QAction::AboutRole);
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
        QtConcurrent::run([absolute] { return TreeJson::readFile(absolute); })
            .then(this, [this, absolute](TreeJson::ParseResult result) {
                --m_pendingLoads;
                if (!result.ok()) {
                    statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
                    emit openFailed(absolute, result.error.message);
                    auto *box = new QMessageBox(QMessageBox::Warning, tr("Cannot open tree"),
                                                tr("The file was rejected; nothing of it was loaded."), QMessageBox::Ok, this);
                    box->setInformativeText(result.error.message);
                    box->setAttribute(Qt::WA_DeleteOnClose);
                    box->open();
                    return;
                }
                auto tree = std::make_shared<const DiscoveryTree>(std::move(*result.tree));
                const int row = m_workspace->addWorld({QFileInfo(absolute).fileName(), absolute, 0, tree});
                setCurrentWorld(row);
                addRecentFile(absolute);
                statusBar()->showMessage(tr("Opened %1: %2 cells").arg(QFileInfo(absolute).fileName()).arg(tree->cellCount()), 5000);
                emit treeOpened(absolute);
            });
    }
}

int MainWindow::openTreeCount() const
{
    return int(m_workspace->worlds().size());
}

std::shared_ptr<const DiscoveryTree> MainWindow::currentTree() const
{
    const auto &worlds = m_workspace->worlds();
    return m_currentWorld >= 0 && m_currentWorld < worlds.size() ? worlds.at(m_currentWorld).tree : nullptr;
}

TreeView *MainWindow::treeView() const
{
    return m_discovery->treeView();
}

void MainWindow::setCurrentWorld(int row)
{
    if (row < 0 || row >= m_workspace->worlds().size())
        row = -1;
    m_currentWorld = row;
    showWorld(row);
    if (row >= 0) {
        const QModelIndex idx = m_projectModel->index(row, 0, m_projectModel->groupIndex(ProjectTreeModel::WorldsGroup));
        if (m_projectView->currentIndex() != idx)
            m_projectView->setCurrentIndex(idx);
    }
}

void MainWindow::showWorld(int row)
{
    const auto &worlds = m_workspace->worlds();
    if (row < 0 || row >= worlds.size()) {
        if (m_cellModel->tree())
            m_cellModel->setTree(nullptr);
        m_discovery->setTree(QString(), nullptr);
        m_cellsLabel->setText(tr("No tree open. Open a tree file (Ctrl+O) or drop one here."));
        m_inspector->clear();
        setWindowTitle(tr("Dream-RSI Workbench"));
        updateActions();
        return;
    }
    const WorldEntry &w = worlds.at(row);
    if (m_cellModel->tree() != w.tree) {
        m_cellModel->setTree(w.tree);
        m_cellView->resizeColumnsToContents();
        m_discovery->setTree(w.name, w.tree);
        m_inspector->clear();
    }
    m_cellsLabel->setText(QStringLiteral("<b>%1</b> — %2").arg(w.name.toHtmlEscaped(), summarizeTree(*w.tree).toHtmlEscaped()));
    setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(w.name));
    updateActions();
}

void MainWindow::inspectCell(int cellIndex)
{
    const auto tree = currentTree();
    if (!tree)
        return;
    m_inspector->showCell(tree, cellIndex);
    m_discovery->treeView()->selectCell(cellIndex);
    // Keep the table's current row in step without re-entering.
    const QModelIndex source = m_cellModel->index(cellIndex, 0);
    const QModelIndex proxy = m_proxy->mapFromSource(source);
    if (proxy.isValid() && m_cellView->currentIndex().row() != proxy.row()) {
        const QSignalBlocker blocker(m_cellView->selectionModel());
        m_cellView->setCurrentIndex(proxy);
        m_cellView->scrollTo(proxy);
    }
    emit cellInspected(cellIndex);
}

void MainWindow::closeCurrentWorld()
{
    if (m_currentWorld < 0)
        return;
    const int row = m_currentWorld;
    m_currentWorld = -1;
    m_workspace->removeWorld(row);
    setCurrentWorld(std::min(row, int(m_workspace->worlds().size()) - 1));
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
    for (int i = 0; i < files.size(); ++i) {
        const QString path = files.at(i);
        QAction *a = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setToolTip(path);
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openFiles({path}); });
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        QAction *clear = m_recentMenu->addAction(tr("Clear List"));
        connect(clear, &QAction::triggered, this, [this] {
            QSettings().remove(QLatin1String(RecentFilesKey));
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::updateActions()
{
    const bool hasTree = currentTree() != nullptr;
    const int tab = m_tabs->currentIndex();
    m_closeAction->setEnabled(m_currentWorld >= 0);
    m_filterEdit->setEnabled(hasTree);
    m_filterColumn->setEnabled(hasTree);
    const bool onTree = tab == DiscoveryTab && hasTree;
    m_zoomInAction->setEnabled(onTree);
    m_zoomOutAction->setEnabled(onTree);
    m_fitAction->setEnabled(onTree);
    m_legendAction->setEnabled(onTree);
    m_findAction->setEnabled(hasTree);
    m_exportAction->setEnabled(onTree);
}

void MainWindow::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    m_settings.save();
    applyTheme();
}

void MainWindow::applyTheme()
{
    bool dark = false;
    switch (m_settings.theme) {
    case AppSettings::Theme::System: {
        const QPalette system = QApplication::style()->standardPalette();
        dark = system.color(QPalette::Window).lightness() < 128;
        QApplication::setPalette(system);
        break;
    }
    case AppSettings::Theme::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        break;
    case AppSettings::Theme::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        dark = true;
        break;
    }
    m_dark = dark;
    m_darkAction->setChecked(dark);
    m_discovery->treeView()->setDarkPalette(dark);
    m_inspector->setDark(dark);
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
}

void MainWindow::editSettings()
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { applySettings(dialog->settings()); });
    dialog->open();
}

bool MainWindow::exportCurrentFigure(const QString &path, QString *error)
{
    FigureExport::Options options;
    QSettings s;
    options.sizeMm = QSizeF(s.value(QStringLiteral("export/widthMm"), 170.0).toDouble(),
                            s.value(QStringLiteral("export/heightMm"), 100.0).toDouble());
    options.dpi = s.value(QStringLiteral("export/dpi"), 300).toInt();
    const auto tree = currentTree();
    if (m_tabs->currentIndex() != DiscoveryTab || !tree) {
        if (error)
            *error = tr("The current tab has no figure to export.");
        return false;
    }
    TreeRenderer renderer = m_discovery->treeView()->renderer();
    renderer.setPalette(TreePalette::light());
    renderer.setSelected(-1);
    options.title = m_workspace->worlds().at(m_currentWorld).name;
    return FigureExport::write(path, options, [&renderer](QPainter &p, const QRectF &area) { renderer.paintFigure(p, area); },
                               error);
}

void MainWindow::exportFigureInteractive()
{
    const QString name = m_tabs->currentIndex() == DiscoveryTab ? tr("Discovery tree") : m_tabs->tabText(m_tabs->currentIndex());
    auto *dialog = new ExportDialog(name, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        QString error;
        const QString path = dialog->path();
        if (exportCurrentFigure(path, &error))
            statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
        else
            QMessageBox::warning(this, tr("Export failed"), error);
    });
    dialog->open();
}

QStringList MainWindow::saveScreenshots(const QString &dir)
{
    QStringList written;
    QDir().mkpath(dir);
    static const char *const names[] = {"discovery", "cells", "replay", "frontiers", "policies"};
    const int current = m_tabs->currentIndex();
    for (int i = 0; i < m_tabs->count(); ++i) {
        m_tabs->setCurrentIndex(i);
        QApplication::processEvents();
        const QString name = i < int(std::size(names)) ? QLatin1String(names[i]) : QStringLiteral("tab%1").arg(i + 1);
        const QString path = QDir(dir).filePath(QStringLiteral("%1-%2.png").arg(i + 1, 2, 10, QLatin1Char('0')).arg(name));
        if (grab().save(path))
            written.append(path);
    }
    m_tabs->setCurrentIndex(current);
    return written;
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
