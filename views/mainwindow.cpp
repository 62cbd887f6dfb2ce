#include "mainwindow.h"

#include "approvaldialog.h"
#include "celltablemodel.h"
#include "discoverypage.h"
#include "dreamingdialog.h"
#include "exportdialog.h"
#include "figureexport.h"
#include "inspectorwidget.h"
#include "model/treejson.h"
#include "model/treesummary.h"
#include "projecttreemodel.h"
#include "frontierpage.h"
#include "plotstyle.h"
#include "policiespage.h"
#include "qcp.h"
#include "replayjobs.h"
#include "replaypage.h"
#include "roundpanel.h"
#include "settingsdialog.h"
#include "store/projectstore.h"
#include "sweeprunner.h"
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
#include <QTimer>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <functional>
#include <limits>
#include <memory>

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
    m_runner = new SweepRunner(m_workspace, this);
    m_runner->setSettings(m_settings);
    m_replay = new ReplayPage(m_workspace);
    m_replay->setSettings(m_settings);
    m_frontiers = new FrontierPage(m_workspace);
    m_policies = new PoliciesPage(m_workspace, m_runner);
    m_tabs->addTab(m_replay, tr("Replay"));
    m_tabs->addTab(m_frontiers, tr("Frontiers"));
    m_tabs->addTab(m_policies, tr("Policies"));
    setCentralWidget(m_tabs);
    m_store = new ProjectStore(this);
    for (const PolicyVersion &v : ReplayJobs::builtinVersions())
        m_workspace->addVersion(v);
    connect(m_frontiers, &FrontierPage::replayRequested, this, &MainWindow::replayVersions);
    connect(m_policies, &PoliciesPage::versionCreated, this, &MainWindow::storeVersion);
    connect(m_policies, &PoliciesPage::approvalRequested, this, &MainWindow::storeApproval);
    connect(m_runner, &SweepRunner::finished, this, &MainWindow::storeResult);
    connect(m_runner, &SweepRunner::progress, this, [this](const QString &name, int done, int total) {
        statusBar()->showMessage(tr("Replaying %1: %2 of %3 episodes").arg(name).arg(done).arg(total));
    });
    connect(m_runner, &SweepRunner::failed, this, [this](const QString &name, const QString &message) {
        m_replayFailures.append(tr("%1: %2").arg(name, message));
    });
    connect(m_runner, &SweepRunner::idle, this, [this] {
        if (m_replayFailures.isEmpty()) {
            statusBar()->showMessage(tr("Replays finished"), 4000);
        } else {
            statusBar()->showMessage(tr("Replay failed: %1").arg(m_replayFailures.join(QStringLiteral("; "))));
            m_replayFailures.clear();
        }
        updateActions();
    });
    connect(m_runner, &SweepRunner::started, this, &MainWindow::updateActions);
    connect(m_replay, &ReplayPage::cellActivated, this, [this](int side, int cell) {
        Q_UNUSED(side);
        if (auto tree = m_replay->treeView(0)->tree())
            m_inspector->showCell(tree, cell);
    });
    connect(m_workspace, &Workspace::versionsChanged, this, &MainWindow::updateActions);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);

    createDocks();
    createActions();
    auto *roundPanel = new RoundPanel(m_store, this);
    roundPanel->install(this);
    connect(roundPanel, &RoundPanel::roundFinished, this, [this] { openProject(m_store->path()); });
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
    // Without a saved layout, size the docks once the window has its real size.
    m_defaultDockSizes = !restoreState(settings.value(QLatin1String(StateKey)).toByteArray());
    rebuildRecentMenu();
    applyTheme();
    updateActions();
}

void MainWindow::replayVersions(const QStringList &names)
{
    if (m_workspace->worlds().isEmpty() || names.isEmpty())
        return;
    m_runner->run(names);
    updateActions();
}

void MainWindow::compareVersions(const QString &a, const QString &b)
{
    const QString world = m_currentWorld >= 0 ? m_workspace->worlds().at(m_currentWorld).name
                                              : (m_workspace->worlds().isEmpty() ? QString() : m_workspace->worlds().first().name);
    m_replay->compare(world, a, b.isEmpty() ? a : b, m_settings.betas.value(m_settings.betas.size() / 2, 0.5));
    m_tabs->setCurrentIndex(ReplayTab);
}

void MainWindow::openProject(const QString &path)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    statusBar()->showMessage(tr("Opening project %1…").arg(QFileInfo(path).fileName()));
    m_store->close().then(this, [this, absolute](StoreResult<Done>) {
        m_store->open(absolute).then(this, [this, absolute](StoreResult<OpenReport> r) {
            if (!r.ok()) {
                emit openFailed(absolute, r.error);
                QMessageBox::warning(this, tr("Cannot open project"), r.error);
                statusBar()->clearMessage();
                return;
            }
            m_projectPath = absolute;
            addRecentProject(absolute);
            if (!r.value->interrupted.isEmpty())
                statusBar()->showMessage(tr("%n interrupted round(s) found; their finished attempts are kept.", nullptr,
                                            int(r.value->interrupted.size())), 8000);
            emit projectOpened(absolute);
            loadProject();
        });
    });
}

void MainWindow::newProject(const QString &path)
{
    ProjectInfo info;
    info.name = QFileInfo(path).completeBaseName();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    m_store->close().then(this, [this, absolute, info](StoreResult<Done>) {
        m_store->create(absolute, info).then(this, [this, absolute](StoreResult<OpenReport> r) {
            if (!r.ok()) {
                QMessageBox::warning(this, tr("Cannot create project"), r.error);
                return;
            }
            m_projectPath = absolute;
            addRecentProject(absolute);
            emit projectOpened(absolute);
            loadProject();
        });
    });
}

void MainWindow::loadProject()
{
    const QString path = m_projectPath;
    m_workspace->clearWorlds();
    m_workspace->clearVersions();
    setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(QFileInfo(path).completeBaseName()));
    // Seed the built-in policies into a project that has none (one write after
    // the other, each awaited, so the reads below see them), then read everything.
    auto readAll = std::make_shared<std::function<void()>>();
    auto seed = std::make_shared<std::function<void(QList<PolicyVersion>)>>();
    *seed = [this, path, weakSeed = std::weak_ptr(seed), readAll](QList<PolicyVersion> pending) {
        if (path != m_projectPath)
            return;
        if (pending.isEmpty())
            return (*readAll)();
        PolicyVersion v = pending.takeFirst();
        v.created = QDateTime::currentDateTimeUtc();
        m_store->addPolicyVersion(v).then(this, [seed = weakSeed.lock(), pending](StoreResult<PolicyVersionId>) { (*seed)(pending); });
    };
    m_store->policyVersions().then(this, [this, path, seed, readAll](StoreResult<QList<PolicyVersion>> versions) {
        if (path != m_projectPath)
            return;
        if (versions.ok() && versions.value->isEmpty())
            (*seed)(ReplayJobs::builtinVersions());
        else
            (*readAll)();
    });
    *readAll = [this, path] {
        m_store->iterations().then(this, [this, path](StoreResult<QList<IterationInfo>> its) {
            if (path != m_projectPath)
                return;
            if (!its.ok()) {
                QMessageBox::warning(this, tr("Cannot read project"), its.error);
                return;
            }
            auto remaining = std::make_shared<int>(int(its.value->size()));
            auto finish = [this, path] {
                // A part that cannot be read is said in the window and the
                // rest still loads: the worlds are already open.
                m_store->policyVersions().then(this, [this, path](StoreResult<QList<PolicyVersion>> vs) {
                    if (path != m_projectPath)
                        return;
                    if (!vs.ok())
                        QMessageBox::warning(this, tr("Cannot read policy versions"), vs.error);
                    for (const PolicyVersion &v : vs.value.value_or(QList<PolicyVersion>()))
                        m_workspace->addVersion(v);
                    m_store->replayResults().then(this, [this, path](StoreResult<QList<ReplayResultRecord>> rs) {
                        if (path != m_projectPath)
                            return;
                        if (!rs.ok())
                            QMessageBox::warning(this, tr("Cannot read replay results"), rs.error);
                        const auto results = ReplayJobs::resultsFromRecords(rs.value.value_or(QList<ReplayResultRecord>()),
                                                                            m_workspace->worlds());
                        for (auto it = results.cbegin(); it != results.cend(); ++it) {
                            for (const PolicyVersion &v : m_workspace->versions()) {
                                if (v.id == it.key())
                                    m_workspace->setResult(v.name, it.value());
                            }
                        }
                        m_store->approvals().then(this, [this, path](StoreResult<QList<Approval>> as) {
                            if (path != m_projectPath)
                                return;
                            if (as.ok())
                                m_workspace->setApprovals(*as.value);
                            else
                                QMessageBox::warning(this, tr("Cannot read approvals"), as.error);
                            statusBar()->showMessage(tr("Project %1: %2 worlds, %3 policy versions")
                                                         .arg(QFileInfo(path).fileName())
                                                         .arg(m_workspace->worlds().size())
                                                         .arg(m_workspace->versions().size()), 6000);
                            if (m_currentWorld < 0 && !m_workspace->worlds().isEmpty())
                                setCurrentWorld(0);
                            updateActions();
                            emit projectLoaded(path);
                        });
                    });
                });
            };
            if (*remaining == 0) {
                finish();
                return;
            }
            // Load iterations in order; each arrives as its own snapshot.
            auto infos = std::make_shared<QList<IterationInfo>>(*its.value);
            auto trees = std::make_shared<QHash<IterationId, std::shared_ptr<const DiscoveryTree>>>();
            for (const IterationInfo &info : *infos) {
                m_store->loadIteration(info.id).then(this, [this, path, info, infos, trees, remaining, finish](StoreResult<DiscoveryTree> t) {
                    if (path != m_projectPath)
                        return;
                    if (t.ok())
                        trees->insert(info.id, std::make_shared<const DiscoveryTree>(std::move(*t.value)));
                    if (--*remaining > 0)
                        return;
                    for (const IterationInfo &i : *infos) {
                        const auto tree = trees->value(i.id);
                        if (!tree)
                            continue;
                        QString name = !i.source.isEmpty() ? QFileInfo(i.source).completeBaseName()
                                                           : tr("iteration %1").arg(i.number.value_or(i.id));
                        m_workspace->addWorld({name, QString(), i.id, tree});
                    }
                    finish();
                });
            }
        });
    };
}

void MainWindow::importTrees(const QStringList &paths)
{
    if (m_projectPath.isEmpty())
        return;
    const QString project = m_projectPath;
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        QtConcurrent::run([absolute] { return TreeJson::readFile(absolute); }).then(this, [this, absolute, project](TreeJson::ParseResult parsed) {
            if (project != m_projectPath)
                return;
            if (!parsed.ok()) {
                emit openFailed(absolute, parsed.error.message);
                QMessageBox::warning(this, tr("Cannot import tree"), parsed.error.message);
                return;
            }
            auto tree = std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
            m_store->importTree(*tree, absolute).then(this, [this, absolute, tree, project](StoreResult<IterationId> id) {
                if (project != m_projectPath)
                    return;
                if (!id.ok()) {
                    QMessageBox::warning(this, tr("Cannot import tree"), id.error);
                    return;
                }
                setCurrentWorld(m_workspace->addWorld({QFileInfo(absolute).completeBaseName(), QString(), *id.value, tree}));
                statusBar()->showMessage(tr("Imported %1 into the project").arg(QFileInfo(absolute).fileName()), 5000);
                emit treeOpened(absolute);
            });
        });
    }
}

void MainWindow::storeVersion(const PolicyVersion &version)
{
    if (m_projectPath.isEmpty())
        return;
    PolicyVersion v = version;
    v.id = 0;
    if (Workspace::isLocalId(v.parent))
        v.parent = 0;
    m_store->addPolicyVersion(v).then(this, [this, v](StoreResult<PolicyVersionId> id) {
        if (!id.ok()) {
            QMessageBox::warning(this, tr("Cannot store policy version"), id.error);
            return;
        }
        PolicyVersion stored = v;
        stored.id = *id.value;
        m_workspace->addVersion(stored);
    });
}

void MainWindow::storeResult(const QString &versionName, const std::shared_ptr<const ReplayResult> &result)
{
    const int row = m_workspace->indexOfVersion(versionName);
    if (m_projectPath.isEmpty() || row < 0 || !result)
        return;
    const PolicyVersionId id = m_workspace->versions().at(row).id;
    if (Workspace::isLocalId(id))
        return;
    const QList<ReplayResultRecord> records = ReplayJobs::recordsFor(*result, id, m_workspace->worlds());
    if (records.isEmpty())
        return;
    m_store->storeReplayResults(records).then(this, [this, versionName](StoreResult<Done> r) {
        if (!r.ok())
            statusBar()->showMessage(tr("Could not store results of %1: %2").arg(versionName, r.error), 8000);
        else
            emit resultsStored(versionName);
    });
}

void MainWindow::storeApproval(const Approval &approval)
{
    if (m_projectPath.isEmpty())
        return;
    QString name;
    for (const PolicyVersion &v : m_workspace->versions()) {
        if (v.id == approval.version)
            name = v.name;
    }
    const QString path = m_projectPath;
    m_store->addApproval(approval).then(this, [this, approval, name, path](StoreResult<qint64> id) {
        if (path != m_projectPath)
            return;
        if (!id.ok()) {
            QMessageBox::warning(this, tr("Cannot store the approval"), id.error);
            return;
        }
        Approval stored = approval;
        stored.id = *id.value;
        m_workspace->addApproval(stored);
        statusBar()->showMessage(tr("%1 approved: the next online round deploys it").arg(name), 8000);
        emit approvalStored(name);
    });
}

void MainWindow::addRecentProject(const QString &path)
{
    QSettings settings;
    QStringList projects = settings.value(QStringLiteral("recentProjects")).toStringList();
    projects.removeAll(path);
    projects.prepend(path);
    while (projects.size() > MaxRecentFiles)
        projects.removeLast();
    settings.setValue(QStringLiteral("recentProjects"), projects);
    rebuildRecentMenu();
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
    m_projectView->setMinimumWidth(200);
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
    m_inspector->setMinimumWidth(340);
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
    QAction *openProjectAction = file->addAction(icon("folder-open", QStyle::SP_DirOpenIcon), tr("Open &Project…"));
    openProjectAction->setObjectName(QStringLiteral("actionOpenProject"));
    openProjectAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openProjectAction->setStatusTip(tr("Open a Dream-RSI project (iterations, policy versions, replay results)"));
    connect(openProjectAction, &QAction::triggered, this, [this] {
        QSettings settings;
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Project"), settings.value(QStringLiteral("lastProjectDir")).toString(),
                                                          tr("Dream-RSI projects (*.dreamrsi *.sqlite *.db);;All files (*)"));
        if (!path.isEmpty()) {
            settings.setValue(QStringLiteral("lastProjectDir"), QFileInfo(path).absolutePath());
            openProject(path);
        }
    });
    toolbar->insertAction(toolbar->actions().value(1), openProjectAction);
    QAction *newProjectAction = file->addAction(icon("document-new", QStyle::SP_FileIcon), tr("&New Project…"));
    newProjectAction->setObjectName(QStringLiteral("actionNewProject"));
    newProjectAction->setShortcut(QKeySequence::New);
    connect(newProjectAction, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("New Project"), QString(), tr("Dream-RSI projects (*.dreamrsi)"));
        if (!path.isEmpty())
            newProject(path.endsWith(QLatin1String(".dreamrsi")) ? path : path + QStringLiteral(".dreamrsi"));
    });
    m_recentProjectsMenu = file->addMenu(tr("Recent Pro&jects"));
    m_importAction = file->addAction(icon("document-import", QStyle::SP_ArrowRight), tr("&Import Trees into Project…"));
    m_importAction->setObjectName(QStringLiteral("actionImport"));
    m_importAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    m_importAction->setStatusTip(tr("Store tree files in the open project as new iterations"));
    connect(m_importAction, &QAction::triggered, this, [this] {
        const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Import Discovery Trees"), QString(),
                                                                tr("Discovery trees (*.json);;All files (*)"));
        if (!paths.isEmpty())
            importTrees(paths);
    });
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

    QMenu *replayMenu = menuBar()->addMenu(tr("&Replay"));
    m_replayAction = replayMenu->addAction(icon("media-playback-start", QStyle::SP_MediaPlay), tr("&Replay Selected Versions"));
    m_replayAction->setObjectName(QStringLiteral("actionReplay"));
    m_replayAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_replayAction->setStatusTip(tr("Replay the versions checked in Frontiers (or selected in Policies) in every open world"));
    connect(m_replayAction, &QAction::triggered, this, [this] {
        QStringList names = m_tabs->currentIndex() == PoliciesTab && !m_policies->selectedVersion().isEmpty()
                                ? QStringList{m_policies->selectedVersion()}
                                : m_frontiers->checkedVersions();
        if (names.isEmpty()) {
            for (const PolicyVersion &v : m_workspace->versions())
                names.append(v.name);
        }
        replayVersions(names);
        if (m_tabs->currentIndex() != PoliciesTab)
            m_tabs->setCurrentIndex(FrontiersTab);
    });
    m_cancelReplayAction = replayMenu->addAction(icon("process-stop", QStyle::SP_BrowserStop), tr("&Cancel Replays"));
    m_cancelReplayAction->setObjectName(QStringLiteral("actionCancelReplay"));
    m_cancelReplayAction->setShortcut(QKeySequence(Qt::Key_Escape));
    connect(m_cancelReplayAction, &QAction::triggered, m_runner, &SweepRunner::cancel);
    m_compareAction = replayMenu->addAction(icon("view-split-left-right", QStyle::SP_FileDialogListView), tr("&Compare Two Versions"));
    m_compareAction->setObjectName(QStringLiteral("actionCompare"));
    m_compareAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    m_compareAction->setStatusTip(tr("Step through the replays of two versions side by side"));
    connect(m_compareAction, &QAction::triggered, this, [this] {
        QStringList names = m_frontiers->checkedVersions();
        for (const PolicyVersion &v : m_workspace->versions()) {
            if (names.size() >= 2)
                break;
            if (!names.contains(v.name))
                names.append(v.name);
        }
        compareVersions(names.value(0), names.value(1));
    });
    QAction *dreamAction = replayMenu->addAction(icon("system-run", QStyle::SP_ComputerIcon), tr("&Dream…"));
    dreamAction->setObjectName(QStringLiteral("actionDream"));
    dreamAction->setStatusTip(tr("Write, replay and propose new policy versions over the project's worlds"));
    connect(dreamAction, &QAction::triggered, this, [this] {
        auto *dialog = new DreamingDialog(*m_workspace, m_store, m_settings, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(dialog, &DreamingDialog::approvalRequested, this, &MainWindow::storeApproval);
        dialog->show();
    });
    toolbar->addSeparator();
    toolbar->addAction(m_replayAction);
    toolbar->addAction(m_compareAction);
    toolbar->addAction(dreamAction);

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
    m_recentProjectsMenu->clear();
    const QStringList projects = QSettings().value(QStringLiteral("recentProjects")).toStringList();
    for (int i = 0; i < projects.size(); ++i) {
        const QString path = projects.at(i);
        QAction *a = m_recentProjectsMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(QFileInfo(path).fileName()));
        a->setStatusTip(path);
        connect(a, &QAction::triggered, this, [this, path] { openProject(path); });
    }
    m_recentProjectsMenu->setEnabled(!projects.isEmpty());
}

void MainWindow::updateActions()
{
    if (!m_replayAction)
        return; // still constructing
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
    const bool hasWorlds = !m_workspace->worlds().isEmpty();
    const bool hasVersions = !m_workspace->versions().isEmpty();
    m_exportAction->setEnabled(onTree || (hasWorlds && (tab == FrontiersTab || tab == ReplayTab)));
    m_importAction->setEnabled(!m_projectPath.isEmpty());
    m_replayAction->setEnabled(hasWorlds && hasVersions);
    m_compareAction->setEnabled(hasWorlds && hasVersions);
    m_cancelReplayAction->setEnabled(m_runner->isRunning());
}

void MainWindow::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    m_settings.save();
    m_runner->setSettings(m_settings);
    m_replay->setSettings(m_settings);
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
    m_replay->setDark(dark);
    m_frontiers->setDark(dark);
    m_policies->setDark(dark);
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
    if (m_tabs->currentIndex() == FrontiersTab || m_tabs->currentIndex() == ReplayTab) {
        QCustomPlot *source = m_tabs->currentIndex() == FrontiersTab ? m_frontiers->plot() : m_replay->plot();
        // Re-draw in the paper palette, export, then restore the screen look.
        const bool dark = m_dark;
        if (dark) {
            m_frontiers->setDark(false);
            m_replay->setDark(false);
        }
        options.title = m_tabs->tabText(m_tabs->currentIndex());
        const bool ok = FigureExport::write(path, options, [source](QPainter &p, const QRectF &area) {
            // FigureExport always paints through a QCPPainter (see figureexport.h).
            auto *qcp = static_cast<QCPPainter *>(&p);
            source->toPainter(qcp, int(area.width()), int(area.height()));
        }, error);
        if (dark) {
            m_frontiers->setDark(true);
            m_replay->setDark(true);
        }
        return ok;
    }
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
    const int tab = m_tabs->currentIndex();
    const QString name = tab == DiscoveryTab ? tr("Discovery tree") : tab == FrontiersTab ? tr("Frontiers") : tr("Anytime curves");
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
    // The approval dialog for the best-valued version that is not deployed yet.
    QString candidate;
    double best = -std::numeric_limits<double>::infinity();
    for (const PolicyVersion &v : m_workspace->versions()) {
        const ReplayResultPtr r = m_workspace->result(v.name);
        if (r && r->value && *r->value > best && v.id != m_workspace->deployedVersion()) {
            best = *r->value;
            candidate = v.name;
        }
    }
    if (!candidate.isEmpty()) {
        ApprovalDialog dialog(*m_workspace, candidate, this);
        dialog.show();
        QApplication::processEvents();
        const QString path = QDir(dir).filePath(QStringLiteral("%1-approval.png").arg(m_tabs->count() + 1, 2, 10, QLatin1Char('0')));
        if (dialog.grab().save(path))
            written.append(path);
        dialog.close();
    }
    // The settings, with the replay process's limits.
    SettingsDialog settings(m_settings, this);
    settings.show();
    QApplication::processEvents();
    const QString settingsPath =
        QDir(dir).filePath(QStringLiteral("%1-settings.png").arg(m_tabs->count() + 2, 2, 10, QLatin1Char('0')));
    if (settings.grab().save(settingsPath))
        written.append(settingsPath);
    settings.close();
    return written;
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (!m_defaultDockSizes)
        return;
    m_defaultDockSizes = false;
    // After the first layout pass, when the docks have their places.
    QTimer::singleShot(0, this, [this] {
        QList<QDockWidget *> docks;
        QList<int> widths;
        for (QDockWidget *d : findChildren<QDockWidget *>()) {
            docks.append(d);
            widths.append(d->objectName() == QLatin1String("inspectorDock") ? width() * 3 / 10 : width() / 6);
        }
        resizeDocks(docks, widths, Qt::Horizontal);
    });
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
        if (!url.isLocalFile())
            continue;
        // A dropped project opens as the project; tree files open as worlds.
        if (url.toLocalFile().endsWith(QLatin1String(".dreamrsi")))
            openProject(url.toLocalFile());
        else
            paths.append(url.toLocalFile());
    }
    if (!paths.isEmpty())
        openFiles(paths);
    event->acceptProposedAction();
}

} // namespace dreamrsi
