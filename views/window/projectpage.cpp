// The project's pages and their wiring, between the main window and its
// tabs (docs/architecture.md#the-rooms-of-views).
#include "projectpage.h"

#include "figures/exportdialog.h"
#include "figures/figureexport.h"
#include "figures/figuresource.h"
#include "live/roundpanel.h"
#include "models/celltablemodel.h"
#include "models/projecttreemodel.h"
#include "models/workspace.h"
#include "policies/dreamingdialog.h"
#include "policies/policiespage.h"
#include "progress/comparepage.h"
#include "progress/progresspage.h"
#include "progress/simulationdialog.h"
#include "replayview/frontierpage.h"
#include "replayview/imaginedcells.h"
#include "replayview/replaypage.h"
#include "replayview/worldmodelpage.h"
#include "session/imaginedworlds.h"
#include "session/projectsession.h"
#include "session/replayjobs.h"
#include "session/sweeprunner.h"
#include "session/uistate.h"
#include "tree/cellspage.h"
#include "tree/discoverypage.h"
#include "tree/inspectorwidget.h"
#include "tree/reevaluationactions.h"
#include "tree/treeview.h"

#include <QDir>
#include <QFileInfo>
#include <QLineEdit>
#include <QMessageBox>
#include <QTabBar>
#include <QTreeView>

namespace dreamrsi {

ProjectPage::ProjectPage(Workspace *workspace, JobTracker *jobs, ProjectSession *session, RoundPanel *round,
                         Preferences *preferences, QWidget *parent)
    : QTabWidget(parent)
    , m_workspace(workspace)
    , m_jobs(jobs)
    , m_session(session)
    , m_round(round)
    , m_preferences(preferences)
{
    setObjectName(QStringLiteral("projectPage"));
    m_runner = new SweepRunner(m_workspace, this);
    m_runner->setPreferences(m_preferences);
    m_runner->setReplayConfig(replayConfig());
    for (const PolicyVersion &v : ReplayJobs::builtinVersions())
        m_workspace->addVersion(v);

    // The pages, each owning its widgets.
    setDocumentMode(true);
    m_discovery = new DiscoveryPage;
    m_cells = new CellsPage;
    m_replay = new ReplayPage(m_workspace);
    m_replay->setPreferences(m_preferences);
    m_replay->setReplayConfig(replayConfig());
    m_frontiers = new FrontierPage(m_workspace);
    m_policies = new PoliciesPage(m_workspace, m_runner);
    m_policies->setPreferences(m_preferences);
    addTab(m_discovery, tr("Discovery"));
    addTab(m_cells, tr("Cells"));
    addTab(m_replay, tr("Replay"));
    addTab(m_frontiers, tr("Frontiers"));
    addTab(m_policies, tr("Policies"));
    m_progress = new ProgressPage(m_workspace);
    addTab(m_progress, tr("Progress"));
    m_worldModel = new WorldModelPage(m_workspace, m_jobs);
    m_worldModel->setPreferences(m_preferences);
    addTab(m_worldModel, tr("World Model"));
    m_compare = new ComparePage;
    addTab(m_compare, tr("Compare"));
    m_imaginedCells = new ImaginedCells(m_discovery, m_jobs, this);
    createDocksWidgets();
    connectPages();
    connectRunner();
}

ProjectPage::~ProjectPage() = default;

void ProjectPage::createDocksWidgets()
{
    // The Project dock's tree of worlds and versions.
    m_projectModel = new ProjectTreeModel(m_workspace, this);
    m_projectView = new QTreeView;
    m_projectView->setModel(m_projectModel);
    m_projectView->setHeaderHidden(true);
    m_projectView->setMinimumWidth(200);
    m_projectView->expandAll();
    connect(m_projectModel, &QAbstractItemModel::rowsInserted, m_projectView, [this](const QModelIndex &parent) {
        m_projectView->expand(parent);
    });
    connect(m_projectView->selectionModel(), &QItemSelectionModel::currentChanged, this, [this](const QModelIndex &current) {
        if (current.data(ProjectTreeModel::KindRole).toInt() == ProjectTreeModel::WorldItem)
            setCurrentWorld(current.data(ProjectTreeModel::RowRole).toInt());
    });

    m_inspector = new InspectorWidget;
    // Never narrower than its seven tabs: they would hide behind scroll arrows.
    m_inspector->setMinimumWidth(std::max(340, m_inspector->pages()->tabBar()->sizeHint().width() + 8));
    // The Path page (docs/compare.md#the-path-to-the-best): a step clicked is selected on the tree, the path drawn there.
    connect(m_inspector, &InspectorWidget::pathStepActivated, this, [this](int cell) {
        m_discovery->selectCell(cell);
        m_discovery->centerOn(cell);
    });
    connect(m_inspector, &InspectorWidget::pathChanged, this,
            [this](const QList<int> &cells) { m_discovery->setPath(m_inspector->tree(), cells); });
}

void ProjectPage::connectPages()
{
    // What the pages ask for.
    connect(m_frontiers, &FrontierPage::replayRequested, this, &ProjectPage::replayVersions);
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
    connect(m_cells, &CellsPage::cellActivated, this, &ProjectPage::inspectCell);
    connect(m_replay, &ReplayPage::cellActivated, this, [this](int, int cell) {
        if (auto tree = m_replay->treeView(0)->tree())
            m_inspector->showCell(tree, cell);
    });
    // What the workspace announces.
    connect(m_workspace, &Workspace::replayConfigChanged, this, &ProjectPage::pushReplayConfig);
    // Tree files replay under the preferences' W, λ and β: a change there is theirs at once.
    connect(m_preferences, &Preferences::looseReplayChanged, this, &ProjectPage::pushReplayConfig);
    connect(m_workspace, &Workspace::replayConfigChanged, this, &ProjectPage::updateImaginationContext);
    connect(m_workspace, &Workspace::versionsChanged, this, &ProjectPage::actionsChanged);
    connect(m_workspace, &Workspace::worldsChanged, this, [this] {
        if (m_currentWorld >= m_workspace->worlds().size())
            m_currentWorld = int(m_workspace->worlds().size()) - 1;
        showWorld(m_currentWorld);
    });
    connect(this, &QTabWidget::currentChanged, this, &ProjectPage::actionsChanged);
    // Compare draws once its sources are read: Export Figure follows.
    connect(m_compare, &ComparePage::refreshed, this, &ProjectPage::actionsChanged);
}

void ProjectPage::connectRunner()
{
    connect(m_runner, &SweepRunner::finished, m_session, &ProjectSession::storeResult);
    connect(m_runner, &SweepRunner::progress, this, [this](const QString &name, int done, int total) {
        emit statusMessage(tr("Replaying %1: %2 of %3 episodes").arg(name).arg(done).arg(total), 0);
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
        emit statusMessage(m_replayOutcomes.isEmpty() ? tr("Nothing was replayed: the versions or the worlds were closed meanwhile")
                                                      : m_replayOutcomes.join(QStringLiteral("; ")),
                           0);
        m_replayOutcomes.clear();
        emit actionsChanged();
    });
    connect(m_runner, &SweepRunner::started, this, &ProjectPage::actionsChanged);
    connect(m_runner, &SweepRunner::started, m_frontiers, &FrontierPage::expectResult); // ticked when it arrives
}

void ProjectPage::addReevaluation(QWidget *window, QMenu *roundMenu)
{
    m_reevaluation = new ReevaluationActions(window, roundMenu, m_cells, m_inspector, m_session, m_workspace, m_jobs,
                                             m_preferences,
                                             {[this] { return currentIteration(); }, [this] { return currentTree(); }});
    connect(m_reevaluation, &ReevaluationActions::message, this, [this](const QString &text) { emit statusMessage(text, 10000); });
}

void ProjectPage::replayVersions(const QStringList &names)
{
    if (m_workspace->worlds().isEmpty()) {
        emit statusMessage(tr("Nothing was replayed: no world is open (open a project or tree files)"), 8000);
        return;
    }
    QStringList known;
    for (const QString &name : names) {
        if (m_workspace->indexOfVersion(name) >= 0 && !known.contains(name))
            known.append(name);
    }
    if (known.isEmpty()) {
        emit statusMessage(tr("Nothing was replayed: no version is selected (select one in Policies or the "
                              "Project dock, or check versions in Frontiers)"),
                           8000);
        return;
    }
    // Under the runner's configuration, the project's (pushReplayConfig):
    // each sweep runs in a child process on a worker; its result is stored
    // (ProjectSession::storeResult) and said when the runner is idle.
    m_runner->run(known);
    emit actionsChanged();
}

QStringList ProjectPage::selectedVersions() const
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
    if (currentIndex() == PoliciesTab && !m_policies->selectedVersion().isEmpty())
        return {m_policies->selectedVersion()};
    return m_frontiers->checkedVersions();
}

QString ProjectPage::replayOutcome(const QString &name, const ReplayResult &result) const
{
    // Under the imagined valuation the result holds C completions of each world.
    const int worlds = int(result.completions > 0 ? result.worlds.size() / result.completions : result.worlds.size());
    if (result.value)
        return tr("Replayed %1 over %n world(s): value %2", nullptr, worlds).arg(name, QString::number(*result.value, 'f', 4));
    const QString why = !result.ok() ? result.firstError() : tr("no world is scorable");
    return tr("Replayed %1 over %n world(s): no value under this configuration (%2)", nullptr, worlds).arg(name, why);
}

void ProjectPage::compareVersions(const QString &a, const QString &b)
{
    const QString world = m_currentWorld >= 0 ? m_workspace->worlds().at(m_currentWorld).name
                                              : (m_workspace->worlds().isEmpty() ? QString() : m_workspace->worlds().first().name);
    const QList<double> betas = replayConfig().betas;
    m_replay->compare(world, a, b.isEmpty() ? a : b, betas.value(betas.size() / 2, 0.5));
    setCurrentIndex(ReplayTab);
}

void ProjectPage::compareCheckedVersions()
{
    QStringList names = m_frontiers->checkedVersions();
    for (const PolicyVersion &v : m_workspace->versions()) {
        if (names.size() >= 2)
            break;
        if (!names.contains(v.name))
            names.append(v.name);
    }
    compareVersions(names.value(0), names.value(1));
}

void ProjectPage::offerStaleReplay(const QStringList &staleVersions)
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    emit statusMessage(tr("Replay configuration stored: %1").arg(config ? config->config.label() : QString()), 6000);
    if (staleVersions.isEmpty() || m_workspace->worlds().isEmpty())
        return;
    auto *ask = new QMessageBox(QMessageBox::Question, tr("Replay stale versions?"),
                                tr("%n policy version(s) have values computed under another replay configuration: %1.\n\n"
                                   "Replay them now under the project's configuration? Their old values are kept and "
                                   "listed with their own configuration.",
                                   nullptr, int(staleVersions.size()))
                                    .arg(staleVersions.join(QStringLiteral(", "))),
                                QMessageBox::Yes | QMessageBox::No, window());
    ask->setObjectName(QStringLiteral("staleReplayQuestion"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    ask->setDefaultButton(QMessageBox::Yes);
    connect(ask, &QMessageBox::finished, this, [this, staleVersions](int result) {
        if (result == QMessageBox::Yes)
            replayVersions(staleVersions); // the replay job: progress in the status bar, Cancel Replays stops it
    });
    ask->open();
}

std::shared_ptr<const DiscoveryTree> ProjectPage::currentTree() const
{
    const auto &worlds = m_workspace->worlds();
    return m_currentWorld >= 0 && m_currentWorld < worlds.size() ? worlds.at(m_currentWorld).tree : nullptr;
}

void ProjectPage::setCurrentWorld(int row)
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

void ProjectPage::showWorld(int row)
{
    const auto &worlds = m_workspace->worlds();
    if (row < 0 || row >= worlds.size()) {
        m_cells->setTree(QString(), nullptr);
        m_discovery->setTree(QString(), nullptr);
        updateDiscoveryPlaceholder();
        m_inspector->clear();
        emit worldShown(QString());
        emit actionsChanged();
        return;
    }
    const WorldEntry &w = worlds.at(row);
    if (m_cells->model()->tree() != w.tree) {
        m_discovery->setTree(w.name, w.tree);
        m_inspector->clear();
    }
    m_cells->setTree(w.name, w.tree);
    if (m_reevaluation)
        m_reevaluation->refresh();
    updateImaginationContext();
    emit worldShown(w.name);
    emit actionsChanged();
}

IterationId ProjectPage::currentIteration() const
{
    const auto &worlds = m_workspace->worlds();
    if (m_currentWorld < 0 || m_currentWorld >= worlds.size() || !m_session->isOpen())
        return 0;
    return worlds.at(m_currentWorld).iteration;
}

void ProjectPage::updateImaginationContext()
{
    const bool approximate = m_preferences->settings().includeApproximate;
    const ImaginedWorlds::History history = ImaginedWorlds::historyOf(m_workspace->worlds(), approximate);
    const int completions =
        m_workspace->replayConfig() ? m_workspace->replayConfig()->config.completions : ReplayConfig().completions;
    m_imaginedCells->setHistory(history.worlds, history.placeOf(m_currentWorld), completions);
    m_worldModel->setCurrentWorld(m_currentWorld); // the model of the shown world's task
}

void ProjectPage::updateDiscoveryPlaceholder()
{
    // "No tree open" only when nothing is: an open project says what it waits for.
    QString text;
    if (m_session->isOpen()) {
        if (m_round->isRunning() || m_round->isFollowing())
            text = tr("A round is running in this project: the Live Round panel shows its tree as it grows; "
                      "each finished iteration is listed under Worlds, to be shown here.");
        else if (m_workspace->worlds().isEmpty())
            text = tr("This project has no finished iteration yet: Launch Round… (Ctrl+Shift+L) runs one.");
        else
            text = tr("Pick a world in the Project panel to show its tree.");
    }
    m_discovery->treeView()->setPlaceholderText(text);
}

void ProjectPage::inspectCell(int cellIndex)
{
    const auto tree = currentTree();
    if (!tree)
        return;
    m_inspector->showCell(tree, cellIndex);
    if (m_reevaluation)
        m_reevaluation->updateInspector();
    if (!m_discovery->showsImagined()) // a completion numbers its cells otherwise
        m_discovery->selectCell(cellIndex);
    // Keep the table's current row in step without re-entering.
    m_cells->selectCell(cellIndex);
    emit cellInspected(cellIndex);
}

void ProjectPage::closeCurrentWorld()
{
    if (m_currentWorld < 0)
        return;
    const int row = m_currentWorld;
    m_currentWorld = -1;
    m_workspace->removeWorld(row);
    setCurrentWorld(std::min(row, int(m_workspace->worlds().size()) - 1));
}

void ProjectPage::setProject(const QString &path)
{
    m_progress->setProject(path);
    m_compare->setProject(path);
}

void ProjectPage::setServedProject(const QString &copyPath)
{
    m_progress->setProject(copyPath);
    m_compare->setServedProject(copyPath);
}

ReplayConfig ProjectPage::replayConfig() const
{
    const std::optional<StoredReplayConfig> &config = m_workspace->replayConfig();
    return config ? config->config : m_preferences->settings().looseReplayConfig();
}

void ProjectPage::pushReplayConfig()
{
    const ReplayConfig config = replayConfig();
    m_runner->setReplayConfig(config);
    m_replay->setReplayConfig(config);
}

void ProjectPage::setDark(bool dark)
{
    m_discovery->setDarkPalette(dark);
    m_inspector->setDark(dark);
    m_replay->setDark(dark);
    m_frontiers->setDark(dark);
    m_policies->setDark(dark);
    m_progress->setDark(dark);
    m_worldModel->setDark(dark);
}

void ProjectPage::findCells()
{
    if (currentIndex() == CellsTab) {
        m_cells->focusFilter();
    } else {
        setCurrentIndex(DiscoveryTab);
        m_discovery->searchEdit()->setFocus();
        m_discovery->searchEdit()->selectAll();
    }
}

void ProjectPage::dream()
{
    auto *dialog = new DreamingDialog(*m_workspace, m_session->store(), m_preferences, window());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DreamingDialog::approvalRequested, m_session, &ProjectSession::storeApproval);
    // Frontiers then shows the deployed version, the proposal and the best few, not every candidate.
    connect(dialog, &DreamingDialog::dreamFinished, this, [this, dialog] {
        const DreamVersion *proposal = dialog->report().proposal();
        m_frontiers->showDream(proposal ? proposal->developed.version.name : QString());
    });
    dialog->show();
}

void ProjectPage::simulateLoop()
{
    // The project's finished iterations, named as everywhere else.
    QList<ReplayWorld> worlds;
    for (const WorldEntry &w : m_workspace->worlds()) {
        if (w.iteration != 0 && w.tree)
            worlds.append(ReplayWorld{w.name, w.tree});
    }
    const QString project = m_session->isOpen() && !m_session->isReadOnly() ? m_session->path() : QString();
    // The form is kept per project, read-only ones too (they cannot store the result).
    auto *dialog = new SimulationDialog(worlds, project, window(), m_session->isOpen() ? m_session->path() : QString());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &SimulationDialog::simulated, this, [this](const QString &label, const SimulationCurves &curves) {
        m_progress->showSimulation(label, curves);
        setCurrentIndex(ProgressTab);
    });
    dialog->show();
}

FigureSource *ProjectPage::currentFigureSource() const
{
    return dynamic_cast<FigureSource *>(currentWidget());
}

Result<Done> ProjectPage::exportCurrentFigure(const QString &path)
{
    FigureSource *source = currentFigureSource();
    const FigureExport::Painter paint = source ? source->figurePainter() : FigureExport::Painter();
    if (!paint)
        return Result<Done>::failure(tr("The current tab has no figure to export."));
    FigureExport::Options options;
    const UiState::ExportForm last = UiState::exportForm(); // what Export Figure… was last given
    options.sizeMm = QSizeF(last.widthMm, last.heightMm);
    options.dpi = last.dpi;
    options.title = source->figureName();
    return FigureExport::write(path, options, paint);
}

Result<Done> ProjectPage::exportCurrentFigureData(const QString &path)
{
    FigureSource *source = currentFigureSource();
    const FigureTable data = source ? source->figureData() : FigureTable();
    if (data.isEmpty())
        return Result<Done>::failure(tr("The current tab's figure has no data to write."));
    return FigureExport::writeText(path, data.toCsv());
}

void ProjectPage::exportFigureInteractive()
{
    FigureSource *source = currentFigureSource();
    if (!source)
        return;
    // Figures of a project go beside it unless told otherwise.
    const QString projectDir = m_session->isOpen() ? QFileInfo(m_session->path()).absolutePath() : QString();
    // The dialog starts from the last export's choices, kept by UiState.
    const UiState::ExportForm kept = UiState::exportForm();
    const ExportChoices last{kept.dir, kept.suffix, kept.widthMm, kept.heightMm, kept.dpi, kept.data};
    auto *dialog = new ExportDialog(source->figureName(), window(), projectDir, last);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // The preview is drawn at the size chosen in the dialog, as the file will be.
    if (const FigureExport::Painter paint = source->figurePainter())
        dialog->setPreview(paint);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const ExportChoices chosen = dialog->choices();
        UiState::setExportForm({chosen.dir, chosen.suffix, chosen.widthMm, chosen.heightMm, chosen.dpi, chosen.data});
        const QString path = dialog->path();
        Result<Done> written = exportCurrentFigure(path); // at the size and resolution just kept
        if (written && dialog->writesData())
            written = exportCurrentFigureData(dialog->dataPath());
        if (!written) {
            QMessageBox::warning(window(), tr("Export failed"), written.error);
            return;
        }
        emit statusMessage(dialog->writesData()
                               ? tr("Exported %1 and %2").arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(dialog->dataPath()))
                               : tr("Exported %1").arg(QDir::toNativeSeparators(path)),
                           6000);
    });
    dialog->open();
}

} // namespace dreamrsi
