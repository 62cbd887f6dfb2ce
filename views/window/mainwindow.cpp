#include "mainwindow.h"

#include "policies/approvaldialog.h"

#include "apptheme.h"
#include "tree/cellspage.h"
#include "models/celltablemodel.h"
#include "tree/discoverypage.h"
#include "policies/dreamingdialog.h"
#include "figures/exportdialog.h"
#include "figures/figureexport.h"
#include "figures/figuresource.h"
#include "replayview/frontierpage.h"
#include "progress/comparepage.h"
#include "progress/progresspage.h"
#include "replayview/imaginedcells.h"
#include "replayview/worldmodelpage.h"
#include "session/imaginedworlds.h"
#include "tree/inspectorwidget.h"
#include "tree/reevaluationactions.h"
#include "session/jobtracker.h"
#include "import/runimport.h"
#include "model/treejson.h"
#include "figures/plotstyle.h"
#include "policies/policiespage.h"
#include "session/projectsession.h"
#include "models/projecttreemodel.h"
#include "figures/qcp.h"
#include "session/replayjobs.h"
#include "replayview/replaypage.h"
#include "live/roundpanel.h"
#include "settingsdialog.h"
#include "session/sweeprunner.h"
#include "models/treesummarytext.h"
#include "tree/treeview.h"
#include "models/workspace.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolBar>
#include <QTreeView>
#include <QtConcurrent/QtConcurrentRun>

namespace dreamrsi {

namespace {
const auto GeometryKey = "mainWindow/geometry";
const auto StateKey = "mainWindow/state";
} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_workspace(new Workspace(this))
    , m_jobs(new JobTracker(this))
    , m_settings(AppSettings::load())
{
    setWindowTitle(tr("Dream-RSI Workbench"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_session = new ProjectSession(m_workspace, m_jobs, this);
    m_runner = new SweepRunner(m_workspace, this);
    m_runner->setSettings(m_settings);
    m_runner->setReplayConfig(replayConfig());
    for (const PolicyVersion &v : ReplayJobs::builtinVersions())
        m_workspace->addVersion(v);

    // The pages, each owning its widgets.
    m_tabs = new QTabWidget;
    m_tabs->setDocumentMode(true);
    m_discovery = new DiscoveryPage;
    m_cells = new CellsPage;
    m_replay = new ReplayPage(m_workspace);
    m_replay->setSettings(m_settings);
    m_replay->setReplayConfig(replayConfig());
    m_frontiers = new FrontierPage(m_workspace);
    m_policies = new PoliciesPage(m_workspace, m_runner);
    m_tabs->addTab(m_discovery, tr("Discovery"));
    m_tabs->addTab(m_cells, tr("Cells"));
    m_tabs->addTab(m_replay, tr("Replay"));
    m_tabs->addTab(m_frontiers, tr("Frontiers"));
    m_tabs->addTab(m_policies, tr("Policies"));
    m_progress = new ProgressPage(m_workspace);
    m_tabs->addTab(m_progress, tr("Progress"));
    m_worldModel = new WorldModelPage(m_workspace, m_jobs);
    m_worldModel->setIncludeApproximate(m_settings.includeApproximate);
    m_tabs->addTab(m_worldModel, tr("World Model"));
    m_compare = new ComparePage;
    m_tabs->addTab(m_compare, tr("Compare"));
    m_imaginedCells = new ImaginedCells(m_discovery, m_jobs, this);
    setCentralWidget(m_tabs);
    createDocks();
    m_roundPanel = new RoundPanel(m_session->store(), this);
    createActions();
    // A round that ended (here or in the process being followed) becomes a
    // world: reopening reads it, for writing once the other process let go.
    connect(m_roundPanel, &RoundPanel::roundFinished, this, [this] { openProject(m_session->path()); });
    connect(m_roundPanel, &RoundPanel::writerReleased, this, [this] { openProject(m_session->path()); });
    connect(m_roundPanel, &RoundPanel::runningChanged, this, &MainWindow::updateDiscoveryPlaceholder);
    connect(m_roundPanel, &RoundPanel::followingChanged, this, &MainWindow::updateDiscoveryPlaceholder);
    // A followed loop waits for approval: reload (the dream's versions and
    // values are new), then the same dialog as for an own approval; its
    // answer goes to the loop through the inbox.
    connect(m_roundPanel, &RoundPanel::approvalReviewRequested, this, &MainWindow::reviewAwaitedApproval);
    statusBar()->showMessage(tr("Ready"));

    // What the pages ask for.
    connect(m_frontiers, &FrontierPage::replayRequested, this, &MainWindow::replayVersions);
    connect(m_policies, &PoliciesPage::versionCreated, m_session, &ProjectSession::storeVersion);
    connect(m_policies, &PoliciesPage::approvalRequested, m_session, &ProjectSession::storeApproval);
    connect(m_discovery->treeView(), &TreeView::cellActivated, this, [this](int cell) {
        // A completion's cells are not the world's: inspect them where they are shown.
        if (!m_discovery->showsImagined()) {
            inspectCell(cell);
            return;
        }
        m_inspector->showCell(m_discovery->shownTree(), cell, m_discovery->imaginedOrigin(cell));
        m_discovery->selectCell(cell);
    });
    connect(m_discovery, &DiscoveryPage::shownTreeChanged, this, [this] { m_inspector->clear(); });
    connect(m_cells, &CellsPage::cellActivated, this, &MainWindow::inspectCell);
    connect(m_replay, &ReplayPage::cellActivated, this, [this](int, int cell) {
        if (auto tree = m_replay->treeView(0)->tree())
            m_inspector->showCell(tree, cell);
    });
    // What the workspace announces.
    connect(m_workspace, &Workspace::replayConfigChanged, this, &MainWindow::pushReplaySettings);
    connect(m_workspace, &Workspace::replayConfigChanged, this, &MainWindow::updateImaginationContext);
    connect(m_workspace, &Workspace::versionsChanged, this, &MainWindow::updateActions);
    connect(m_workspace, &Workspace::worldsChanged, this, [this] {
        if (m_currentWorld >= m_workspace->worlds().size())
            m_currentWorld = int(m_workspace->worlds().size()) - 1;
        showWorld(m_currentWorld);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::updateActions);
    // Compare draws once its sources are read: Export Figure follows.
    connect(m_compare, &ComparePage::refreshed, this, &MainWindow::updateActions);
    connectSession();
    m_reevaluation = new ReevaluationActions(this, menuBar()->findChild<QMenu *>(QStringLiteral("menuRound")), m_cells,
                                             m_inspector, m_session, m_workspace, m_jobs, m_settings,
                                             {[this] { return currentIteration(); }, [this] { return currentTree(); }});
    connect(m_reevaluation, &ReevaluationActions::message, this, [this](const QString &text) {
        statusBar()->showMessage(text, 10000);
    });
    connectRunner();

    QSettings settings;
    if (!restoreGeometry(settings.value(QLatin1String(GeometryKey)).toByteArray())) {
        // The default size, within the screen's free area.
        const QRect free = screen() ? screen()->availableGeometry() : QRect(0, 0, 1400, 860);
        resize(std::min(1400, free.width()), std::min(860, free.height()));
    }
    // Without a saved layout, size the docks once the window has its real size.
    m_defaultDockSizes = !restoreState(settings.value(QLatin1String(StateKey)).toByteArray());
    rebuildRecentMenu();
    applyTheme();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectSession()
{
    connect(m_session, &ProjectSession::opened, this, [this](const QString &path, const OpenReport &report) {
        addRecentProject(path);
        m_roundPanel->showProject(path); // before following: what is followed below is this project's
        if (report.readOnly && report.writer) {
            setWindowTitle(tr("%1 (read-only) — Dream-RSI Workbench").arg(isDemoCopy(path) ? tr("Demo project") : QFileInfo(path).completeBaseName()));
            statusBar()->showMessage(tr("Another process (pid %1) writes this project: it is open read-only and its round is followed")
                                         .arg(report.writer->pid),
                                     8000);
            m_roundPanel->followProject(*report.writer);
        } else {
            setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(isDemoCopy(path) ? tr("Demo project") : QFileInfo(path).completeBaseName()));
            m_roundPanel->stopFollowing();
        }
        if (!report.interrupted.isEmpty())
            statusBar()->showMessage(tr("%n interrupted round(s) found; their finished attempts are kept.", nullptr,
                                        int(report.interrupted.size())), 8000);
        m_progress->setProject(path);
        m_compare->setProject(path);
        updateActions();
        emit projectOpened(path);
    });
    connect(m_session, &ProjectSession::openFailed, this, [this](const QString &path, const QString &message) {
        emit openFailed(path, message);
        QMessageBox::warning(this, tr("Cannot open project"), message);
        statusBar()->clearMessage();
    });
    // A part that cannot be read is said in the window and the rest still loads.
    connect(m_session, &ProjectSession::stageFailed, this, [this](ProjectSession::Stage stage, const QString &message) {
        const QString title = stage == ProjectSession::Stage::Worlds     ? tr("Cannot read project")
                              : stage == ProjectSession::Stage::Versions ? tr("Cannot read policy versions")
                              : stage == ProjectSession::Stage::Results  ? tr("Cannot read replay results")
                                                                         : tr("Cannot read approvals");
        QMessageBox::warning(this, title, message);
    });
    connect(m_session, &ProjectSession::loaded, this, [this](const QString &path) {
        statusBar()->showMessage(tr("Project %1: %2 worlds, %3 policy versions")
                                     .arg(QFileInfo(path).fileName())
                                     .arg(m_workspace->worlds().size())
                                     .arg(m_workspace->versions().size()), 6000);
        if (m_currentWorld < 0 && !m_workspace->worlds().isEmpty())
            setCurrentWorld(0);
        updateActions();
        emit projectLoaded(path);
    });
    connect(m_session, &ProjectSession::treeImported, this, [this](const QString &source, int row) {
        setCurrentWorld(row);
        statusBar()->showMessage(tr("Imported %1 into the project").arg(QFileInfo(source).fileName()), 5000);
        emit treeOpened(source);
    });
    connect(m_session, &ProjectSession::importFailed, this, [this](const QString &source, const QString &message) {
        emit openFailed(source, message);
        QMessageBox::warning(this, tr("Cannot import tree"), message);
    });
    connect(m_session, &ProjectSession::storeFailed, this, [this](const QString &what, const QString &message) {
        QMessageBox::warning(this, tr("Cannot store %1").arg(what), message);
    });
    connect(m_session, &ProjectSession::resultsStored, this, &MainWindow::resultsStored);
    connect(m_session, &ProjectSession::replayConfigStored, this, &MainWindow::offerStaleReplay);
    connect(m_session, &ProjectSession::approvalStored, this, [this](const QString &name) {
        statusBar()->showMessage(tr("%1 approved: the next online round deploys it").arg(name), 8000);
        emit approvalStored(name);
    });
}

void MainWindow::connectRunner()
{
    connect(m_runner, &SweepRunner::finished, m_session, &ProjectSession::storeResult);
    connect(m_runner, &SweepRunner::progress, this, [this](const QString &name, int done, int total) {
        statusBar()->showMessage(tr("Replaying %1: %2 of %3 episodes").arg(name).arg(done).arg(total));
    });
    // What each replay gave, said together once the runner is idle: the
    // values, or why a version has none.
    connect(m_runner, &SweepRunner::finished, this, [this](const QString &name, const ReplayResultPtr &result) {
        if (result)
            m_replayOutcomes.append(replayOutcome(name, *result));
    });
    connect(m_runner, &SweepRunner::failed, this, [this](const QString &name, const QString &message) {
        m_replayOutcomes.append(tr("Replay of %1 failed: %2").arg(name, message));
    });
    connect(m_runner, &SweepRunner::cancelled, this, [this](const QString &name) {
        m_replayOutcomes.append(tr("Replay of %1 cancelled").arg(name));
    });
    connect(m_runner, &SweepRunner::idle, this, [this] {
        statusBar()->showMessage(m_replayOutcomes.isEmpty() ? tr("Nothing was replayed: the versions or the worlds were closed meanwhile")
                                                            : m_replayOutcomes.join(QStringLiteral("; ")));
        m_replayOutcomes.clear();
        updateActions();
    });
    connect(m_runner, &SweepRunner::started, this, &MainWindow::updateActions);
    connect(m_runner, &SweepRunner::started, m_frontiers, &FrontierPage::expectResult); // ticked when it arrives
}

void MainWindow::replayVersions(const QStringList &names)
{
    if (m_workspace->worlds().isEmpty()) {
        statusBar()->showMessage(tr("Nothing was replayed: no world is open (open a project or tree files)"), 8000);
        return;
    }
    QStringList known;
    for (const QString &name : names) {
        if (m_workspace->indexOfVersion(name) >= 0 && !known.contains(name))
            known.append(name);
    }
    if (known.isEmpty()) {
        statusBar()->showMessage(tr("Nothing was replayed: no version is selected (select one in Policies or the "
                                    "Project dock, or check versions in Frontiers)"),
                                 8000);
        return;
    }
    // Under the runner's configuration, the project's (pushReplaySettings):
    // each sweep runs in a child process on a worker; its result is stored
    // (ProjectSession::storeResult) and said when the runner is idle.
    m_runner->run(known);
    updateActions();
}

QStringList MainWindow::selectedVersions() const
{
    // The Project dock lists the versions beside every tab: a version
    // selected there (the toolbar does not take the focus) is the one meant.
    if (m_projectView->hasFocus()) {
        const QModelIndex current = m_projectView->currentIndex();
        if (current.data(ProjectTreeModel::KindRole).toInt() == ProjectTreeModel::VersionItem) {
            const int row = current.data(ProjectTreeModel::RowRole).toInt();
            if (row >= 0 && row < m_workspace->versions().size())
                return {m_workspace->versions().at(row).name};
        }
    }
    if (m_tabs->currentIndex() == PoliciesTab && !m_policies->selectedVersion().isEmpty())
        return {m_policies->selectedVersion()};
    return m_frontiers->checkedVersions();
}

QString MainWindow::replayOutcome(const QString &name, const ReplayResult &result) const
{
    // Under the imagined valuation the result holds C completions of each world.
    const int worlds = int(result.completions > 0 ? result.worlds.size() / result.completions : result.worlds.size());
    if (result.value)
        return tr("Replayed %1 over %n world(s): value %2", nullptr, worlds).arg(name, QString::number(*result.value, 'f', 4));
    const QString why = !result.ok() ? result.firstError() : tr("no world is scorable");
    return tr("Replayed %1 over %n world(s): no value under this configuration (%2)", nullptr, worlds).arg(name, why);
}

void MainWindow::compareVersions(const QString &a, const QString &b)
{
    const QString world = m_currentWorld >= 0 ? m_workspace->worlds().at(m_currentWorld).name
                                              : (m_workspace->worlds().isEmpty() ? QString() : m_workspace->worlds().first().name);
    const QList<double> betas = replayConfig().betas;
    m_replay->compare(world, a, b.isEmpty() ? a : b, betas.value(betas.size() / 2, 0.5));
    m_tabs->setCurrentIndex(ReplayTab);
}

void MainWindow::openProject(const QString &path)
{
    statusBar()->showMessage(tr("Opening project %1…").arg(QFileInfo(path).fileName()));
    m_roundPanel->stopFollowing(); // the store is about to close; opened() says what to follow next
    m_session->open(path);
}

void MainWindow::reviewAwaitedApproval(const QString &name)
{
    connect(
        m_session, &ProjectSession::loaded, this,
        [this, name] {
            if (m_workspace->indexOfVersion(name) < 0) {
                statusBar()->showMessage(tr("Version %1 is not in the project (yet); try again").arg(name), 8000);
                return;
            }
            auto *dialog = new ApprovalDialog(*m_workspace, name, this);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            dialog->setObjectName(QStringLiteral("awaitedApprovalDialog"));
            connect(dialog, &QDialog::accepted, this, [this, dialog, name] {
                const Approval a = dialog->approval();
                m_roundPanel->answerApproval(name, a.who, a.note);
            });
            dialog->open();
        },
        Qt::SingleShotConnection);
    openProject(m_session->path());
}

void MainWindow::newProject(const QString &path)
{
    m_roundPanel->stopFollowing();
    m_session->create(path);
}

QString MainWindow::projectPath() const
{
    return m_session->path();
}

void MainWindow::importTrees(const QStringList &paths)
{
    if (!m_session->isOpen())
        return;
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        // A run (core/import) is stored as the tree it maps onto, scored as it comes.
        m_jobs->then(QStringLiteral("project"), QtConcurrent::run([absolute] { return RunImport::readTreeOrRun(absolute); }), this,
                     [this, absolute](Result<RunImport::Imported> parsed) {
                         if (!parsed.ok()) {
                             emit openFailed(absolute, parsed.error);
                             QMessageBox::warning(this, tr("Cannot import tree"), parsed.error);
                             return;
                         }
                         // A run is named by RunImport::worldName (a db folder alone says little).
                         const QString source = parsed.value->framework ? RunImport::worldName(absolute) : absolute;
                         m_session->importTree(std::make_shared<const DiscoveryTree>(std::move(parsed.value->tree)), source);
                     });
    }
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
    // Never narrower than its seven tabs: they would hide behind scroll arrows.
    m_inspector->setMinimumWidth(std::max(340, m_inspector->pages()->tabBar()->sizeHint().width() + 8));
    inspectorDock->setWidget(m_inspector);
    // The Path page (docs/compare.md#the-path-to-the-best): a step clicked is selected on the tree, the path drawn there.
    connect(m_inspector, &InspectorWidget::pathStepActivated, this, [this](int cell) {
        m_discovery->selectCell(cell);
        m_discovery->centerOn(cell);
    });
    connect(m_inspector, &InspectorWidget::pathChanged, this,
            [this](const QList<int> &cells) { m_discovery->setPath(m_inspector->tree(), cells); });
    addDockWidget(Qt::RightDockWidgetArea, inspectorDock);
}

void MainWindow::openFiles(const QStringList &paths)
{
    for (const QString &path : paths) {
        const QString absolute = QFileInfo(path).absoluteFilePath();
        if (RunImport::looksLikeRunPath(absolute)) {
            openRun(absolute);
            continue;
        }
        statusBar()->showMessage(tr("Loading %1…").arg(QFileInfo(path).fileName()));
        // Through the tracker like every job (counted in pending(), never
        // answered after the window is gone); opened files outlive projects,
        // so their scope is never renewed.
        m_jobs->then(QStringLiteral("files"), QtConcurrent::run([absolute] { return TreeJson::readFile(absolute); }), this,
            [this, absolute](TreeJson::ParseResult result) {
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

namespace {

/// What reading a run off the GUI thread gives back.
struct RunRead
{
    Result<RunImport::Imported> imported;
    RunImport::MetricSurvey survey; ///< of the reading, when no metric was named
};

} // namespace

void MainWindow::openRun(const QString &path, std::optional<QString> metric)
{
    const QString absolute = QFileInfo(path).absoluteFilePath();
    statusBar()->showMessage(tr("Reading the run %1…").arg(QFileInfo(absolute).fileName()));
    m_jobs->then(QStringLiteral("files"), QtConcurrent::run([absolute, metric] {
        RunRead read{RunImport::read(absolute, RunImport::Options{metric.value_or(QString())}), {}};
        if (read.imported && !metric)
            read.survey = RunImport::surveyMetrics(read.imported.value->tree);
        return read;
    }), this, [this, absolute, metric](RunRead read) {
        if (!read.imported) {
            statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(absolute).fileName()), 8000);
            emit openFailed(absolute, read.imported.error);
            // A short title (the window manager adds the application's name
            // and cuts what does not fit); the run is named in the text.
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Open Run"),
                                        tr("The run %1 was rejected; nothing of it was loaded.")
                                            .arg(QDir::toNativeSeparators(absolute)),
                                        QMessageBox::Ok, this);
            box->setInformativeText(read.imported.error);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
            return;
        }
        if (!metric && !read.survey.hasCombinedScore && !read.survey.numericMetrics.isEmpty()) {
            // No combined_score: the researcher says which metric scores the programs.
            std::optional<QString> chosen;
            if (m_metricChooser) {
                chosen = m_metricChooser(absolute, read.survey.numericMetrics);
            } else {
                const QString mean = tr("The mean of all numeric metrics (OpenEvolve's own score)");
                bool ok = false;
                const QString item = QInputDialog::getItem(
                    this, tr("Score by Which Metric?"),
                    tr("%1 has no combined_score. Score its programs by:").arg(QFileInfo(absolute).fileName()),
                    read.survey.numericMetrics + QStringList{mean}, 0, false, &ok);
                if (ok)
                    chosen = item == mean ? QString() : item;
            }
            if (!chosen) {
                statusBar()->showMessage(tr("%1 was not opened").arg(QFileInfo(absolute).fileName()), 5000);
                emit openFailed(absolute, tr("no metric was chosen to score by"));
                return;
            }
            openRun(absolute, *chosen);
            return;
        }
        auto tree = std::make_shared<const DiscoveryTree>(std::move(read.imported.value->tree));
        const int row = m_workspace->addWorld({RunImport::worldName(absolute), absolute, 0, tree});
        setCurrentWorld(row);
        addRecentFile(absolute);
        QString message = tr("Opened %1: %2 cells").arg(RunImport::worldName(absolute)).arg(tree->cellCount());
        if (tree->meta().approximate)
            message += QLatin1String("; ") + tr("an approximate world (forks or orphans)");
        for (const QString &note : read.imported.value->notes)
            message += QLatin1String("; ") + note;
        statusBar()->showMessage(message, 8000);
        emit treeOpened(absolute);
    });
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

QSortFilterProxyModel *MainWindow::cellProxyModel() const
{
    return m_cells->proxy();
}

CellTableModel *MainWindow::cellModel() const
{
    return m_cells->model();
}

QTableView *MainWindow::cellView() const
{
    return m_cells->view();
}

QLineEdit *MainWindow::filterEdit() const
{
    return m_cells->filterEdit();
}

QComboBox *MainWindow::filterColumn() const
{
    return m_cells->filterColumn();
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
        m_cells->setTree(QString(), nullptr);
        m_discovery->setTree(QString(), nullptr);
        updateDiscoveryPlaceholder();
        m_inspector->clear();
        setWindowTitle(tr("Dream-RSI Workbench"));
        updateActions();
        return;
    }
    const WorldEntry &w = worlds.at(row);
    if (m_cells->model()->tree() != w.tree) {
        m_discovery->setTree(w.name, w.tree);
        m_inspector->clear();
    }
    m_cells->setTree(w.name, w.tree);
    m_reevaluation->refresh();
    updateImaginationContext();
    setWindowTitle(tr("%1 — Dream-RSI Workbench").arg(w.name));
    updateActions();
}

IterationId MainWindow::currentIteration() const
{
    const auto &worlds = m_workspace->worlds();
    if (m_currentWorld < 0 || m_currentWorld >= worlds.size() || !m_session->isOpen())
        return 0;
    return worlds.at(m_currentWorld).iteration;
}

void MainWindow::updateImaginationContext()
{
    const ImaginedWorlds::History history = ImaginedWorlds::historyOf(m_workspace->worlds(), m_settings.includeApproximate);
    const int completions =
        m_workspace->replayConfig() ? m_workspace->replayConfig()->config.completions : ReplayConfig().completions;
    m_imaginedCells->setHistory(history.worlds, history.placeOf(m_currentWorld), completions);
    m_worldModel->setCurrentWorld(m_currentWorld); // the model of the shown world's task
}

void MainWindow::updateDiscoveryPlaceholder()
{
    // "No tree open" only when nothing is: an open project says what it waits for.
    QString text;
    if (m_session->isOpen()) {
        if (m_roundPanel->isRunning() || m_roundPanel->isFollowing())
            text = tr("A round is running in this project: the Live Round panel shows its tree as it grows; "
                      "each finished iteration is listed under Worlds, to be shown here.");
        else if (m_workspace->worlds().isEmpty())
            text = tr("This project has no finished iteration yet: Launch Round… (Ctrl+Shift+L) runs one.");
        else
            text = tr("Pick a world in the Project panel to show its tree.");
    }
    m_discovery->treeView()->setPlaceholderText(text);
}

void MainWindow::inspectCell(int cellIndex)
{
    const auto tree = currentTree();
    if (!tree)
        return;
    m_inspector->showCell(tree, cellIndex);
    m_reevaluation->updateInspector();
    if (!m_discovery->showsImagined()) // a completion numbers its cells otherwise
        m_discovery->selectCell(cellIndex);
    // Keep the table's current row in step without re-entering.
    m_cells->selectCell(cellIndex);
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

void MainWindow::applySettings(const AppSettings &settings)
{
    m_settings = settings;
    m_settings.save();
    pushReplaySettings();
    applyTheme();
}

ReplayConfig MainWindow::replayConfig() const
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    return config ? config->config : m_settings.looseReplayConfig();
}

void MainWindow::pushReplaySettings()
{
    const ReplayConfig config = replayConfig();
    m_runner->setSettings(m_settings);
    m_runner->setReplayConfig(config);
    m_replay->setSettings(m_settings);
    m_replay->setReplayConfig(config);
    m_worldModel->setIncludeApproximate(m_settings.includeApproximate);
}

void MainWindow::offerStaleReplay(const QStringList &staleVersions)
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    statusBar()->showMessage(tr("Replay configuration stored: %1").arg(config ? config->config.label() : QString()), 6000);
    if (staleVersions.isEmpty() || m_workspace->worlds().isEmpty())
        return;
    auto *ask = new QMessageBox(QMessageBox::Question, tr("Replay stale versions?"),
                                tr("%n policy version(s) have values computed under another replay configuration: %1.\n\n"
                                   "Replay them now under the project's configuration? Their old values are kept and "
                                   "listed with their own configuration.",
                                   nullptr, int(staleVersions.size()))
                                    .arg(staleVersions.join(QStringLiteral(", "))),
                                QMessageBox::Yes | QMessageBox::No, this);
    ask->setObjectName(QStringLiteral("staleReplayQuestion"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setDefaultButton(QMessageBox::Yes);
    connect(ask, &QMessageBox::finished, this, [this, staleVersions](int result) {
        if (result == QMessageBox::Yes)
            replayVersions(staleVersions); // the replay job: progress in the status bar, Cancel Replays stops it
    });
    ask->open();
}

void MainWindow::applyTheme()
{
    m_dark = AppTheme::apply(m_settings.theme);
    m_darkAction->setChecked(m_dark);
    m_discovery->setDarkPalette(m_dark);
    m_inspector->setDark(m_dark);
    m_replay->setDark(m_dark);
    m_frontiers->setDark(m_dark);
    m_policies->setDark(m_dark);
    m_progress->setDark(m_dark);
    m_worldModel->setDark(m_dark);
    // The live round's tree and charts, and icons that would vanish on a dark palette.
    m_roundPanel->treeView()->setDarkPalette(m_dark);
    AppTheme::styleCharts(this, m_dark);
    AppTheme::adaptIcons(findChildren<QAction *>(), m_dark);
    m_compare->setDark(m_dark);
}

void MainWindow::editSettings()
{
    auto *dialog = new SettingsDialog(m_settings, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const std::optional<StoredReplayConfig> config = m_session->isOpen() ? m_workspace->replayConfig() : std::nullopt;
    if (config)
        dialog->setProjectReplayConfig(config->config, QFileInfo(m_session->path()).completeBaseName());
    connect(dialog, &QDialog::accepted, this, [this, dialog, config] {
        applySettings(dialog->settings());
        const std::optional<ReplayConfig> edited = dialog->projectReplayConfig();
        if (config && edited && !(*edited == config->config))
            m_session->setReplayConfig(*edited); // then offerStaleReplay()
    });
    dialog->open();
}

FigureSource *MainWindow::currentFigureSource() const
{
    return dynamic_cast<FigureSource *>(m_tabs->currentWidget());
}

Result<Done> MainWindow::exportCurrentFigure(const QString &path)
{
    FigureSource *source = currentFigureSource();
    const FigureExport::Painter paint = source ? source->figurePainter() : FigureExport::Painter();
    if (!paint)
        return Result<Done>::failure(tr("The current tab has no figure to export."));
    FigureExport::Options options;
    QSettings s;
    options.sizeMm = QSizeF(s.value(QStringLiteral("export/widthMm"), 170.0).toDouble(),
                            s.value(QStringLiteral("export/heightMm"), 100.0).toDouble());
    options.dpi = s.value(QStringLiteral("export/dpi"), 300).toInt();
    options.title = source->figureName();
    return FigureExport::write(path, options, paint);
}

Result<Done> MainWindow::exportCurrentFigureData(const QString &path)
{
    FigureSource *source = currentFigureSource();
    const FigureTable data = source ? source->figureData() : FigureTable();
    if (data.isEmpty())
        return Result<Done>::failure(tr("The current tab's figure has no data to write."));
    return FigureExport::writeText(path, data.toCsv());
}

void MainWindow::exportFigureInteractive()
{
    FigureSource *source = currentFigureSource();
    if (!source)
        return;
    // Figures of a project go beside it unless told otherwise.
    const QString projectDir = m_session->isOpen() ? QFileInfo(m_session->path()).absolutePath() : QString();
    auto *dialog = new ExportDialog(source->figureName(), this, projectDir);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The preview is drawn at the size chosen in the dialog, as the file will be.
    if (const FigureExport::Painter paint = source->figurePainter())
        dialog->setPreview(paint);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const QString path = dialog->path();
        Result<Done> written = exportCurrentFigure(path);
        if (written && dialog->writesData())
            written = exportCurrentFigureData(dialog->dataPath());
        if (!written) {
            QMessageBox::warning(this, tr("Export failed"), written.error);
            return;
        }
        statusBar()->showMessage(dialog->writesData()
                                     ? tr("Exported %1 and %2").arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(dialog->dataPath()))
                                     : tr("Exported %1").arg(QDir::toNativeSeparators(path)),
                                 6000);
    });
    dialog->open();
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
        // A dropped project opens as the project; tree files and runs
        // (OpenEvolve folders, ShinkaEvolve databases) open as worlds.
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
