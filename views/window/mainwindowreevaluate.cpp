// The window's re-evaluation (docs/online.md#re-evaluating-the-best):
// Re-evaluate… in the Cells tab and the inspector, Round ▸ Re-evaluate the
// Best…, the repeats run off the GUI thread with progress and Cancel, and
// the stored statistics shown in the Cells table and the inspector.
#include "mainwindow.h"

#include "models/celltablemodel.h"
#include "models/workspace.h"
#include "session/projectsession.h"
#include "tree/cellspage.h"
#include "tree/inspectorwidget.h"

#include "backend/localevaluationbackend.h"
#include "loop/reevaluation/reevaluation.h"
#include "store/projectstore.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace dreamrsi {

namespace {

/// Asks how many repeats (and, for the best cells, how many cells): the
/// values, or nothing when the person cancelled.
std::optional<std::pair<int, int>> askRepeats(QWidget *parent, const QString &title, const QString &what, bool askTop)
{
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("reevaluateDialog"));
    dialog.setWindowTitle(title);
    auto *form = new QFormLayout(&dialog);
    auto *label = new QLabel(what);
    label->setWordWrap(true);
    form->addRow(label);
    auto *top = new QSpinBox;
    top->setObjectName(QStringLiteral("reevaluateTop"));
    top->setRange(1, 1000);
    top->setValue(3);
    if (askTop)
        form->addRow(QObject::tr("Best cells (K):"), top);
    auto *repeats = new QSpinBox;
    repeats->setObjectName(QStringLiteral("reevaluateRepeats"));
    repeats->setRange(1, 1000);
    repeats->setValue(5);
    repeats->setToolTip(QObject::tr("Evaluations per cell; an interval needs at least two that succeed"));
    form->addRow(QObject::tr("Repeats per cell (R):"), repeats);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(QObject::tr("Re-evaluate"));
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return std::make_pair(askTop ? top->value() : 0, repeats->value());
}

} // namespace

void MainWindow::createReevaluation()
{
    m_reevaluateCellAction = new QAction(tr("Re-evaluate…"), this);
    m_reevaluateCellAction->setObjectName(QStringLiteral("reevaluateCellAction"));
    m_reevaluateCellAction->setToolTip(tr("Evaluate the current cell's stored program again, several times"));
    QTableView *view = m_cells->view();
    view->addAction(m_reevaluateCellAction);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_reevaluateCellAction, &QAction::triggered, this, [this] {
        const QModelIndex current = m_cells->view()->currentIndex();
        if (current.isValid())
            reevaluateCell(m_cells->proxy()->mapToSource(current).row());
    });
    connect(m_inspector, &InspectorWidget::reevaluateRequested, this, &MainWindow::reevaluateCell);

    m_reevaluateBestAction = new QAction(tr("Re-evaluate the &Best…"), this);
    m_reevaluateBestAction->setObjectName(QStringLiteral("reevaluateBestAction"));
    m_reevaluateBestAction->setToolTip(tr("Evaluate the best cells of the shown iteration again, several times each"));
    if (QMenu *round = menuBar()->findChild<QMenu *>(QStringLiteral("menuRound"))) {
        round->addSeparator();
        round->addAction(m_reevaluateBestAction);
    }
    connect(m_reevaluateBestAction, &QAction::triggered, this, [this] {
        const IterationId iteration = currentIteration();
        // Titles are short: the window manager adds the application's name
        // and cuts what does not fit. The text says what is re-evaluated.
        const auto asked = askRepeats(this, tr("Re-evaluate"),
                                      tr("Evaluate the best K cells of iteration %1 by recorded score again, R times "
                                         "each. The recorded scores do not change.").arg(iteration),
                                      true);
        if (asked)
            startReevaluation(ReevaluationSelection{iteration, asked->first, {}}, asked->second);
    });
    connect(m_session->store(), &ProjectStore::reevaluationsChanged, this, &MainWindow::loadReevaluations);
    // Every project iteration shown anywhere has its repeats read: Frontiers
    // and the anytime curves show those of worlds other than the current one.
    auto loadRow = [this](int row) {
        if (row >= 0 && row < m_workspace->worlds().size())
            loadReevaluations(m_workspace->worlds().at(row).iteration);
    };
    connect(m_workspace, &Workspace::worldAdded, this, loadRow);
    connect(m_workspace, &Workspace::worldChanged, this, loadRow);
    connect(m_workspace, &Workspace::reevaluationsChanged, this, [this](qint64 iteration) {
        if (iteration == currentIteration())
            refreshReevaluations();
    });
    updateReevaluationActions();
}

IterationId MainWindow::currentIteration() const
{
    const auto &worlds = m_workspace->worlds();
    if (m_currentWorld < 0 || m_currentWorld >= worlds.size() || !m_session->isOpen())
        return 0;
    return worlds.at(m_currentWorld).iteration;
}

void MainWindow::updateReevaluationActions()
{
    if (!m_reevaluateCellAction)
        return; // before createReevaluation()
    const bool can = currentIteration() > 0 && !m_session->isReadOnly() && !m_reevaluating;
    m_reevaluateCellAction->setEnabled(can);
    m_reevaluateBestAction->setEnabled(can);
    m_inspector->setReevaluationEnabled(can);
}

void MainWindow::reevaluateCell(int cellIndex)
{
    const auto tree = currentTree();
    if (!tree || cellIndex < 0 || cellIndex >= tree->cellCount() || currentIteration() == 0)
        return;
    const QString id = tree->cells().at(cellIndex).id;
    const auto asked = askRepeats(this, tr("Re-evaluate"),
                                  tr("Evaluate the stored program of %1 again, R times. Its recorded score does not "
                                     "change.").arg(id),
                                  false);
    if (asked)
        startReevaluation(ReevaluationSelection{currentIteration(), 0, {id}}, asked->second);
}

void MainWindow::startReevaluation(const ReevaluationSelection &selection, int repeats)
{
    if (m_reevaluating || selection.iteration == 0)
        return;
    m_reevaluating = true;
    updateReevaluationActions();
    auto cancel = std::make_shared<std::atomic_bool>(false);
    QPointer<QProgressDialog> progress = new QProgressDialog(tr("Re-evaluating…"), tr("Cancel"), 0, 0, this);
    progress->setObjectName(QStringLiteral("reevaluateProgress"));
    progress->setWindowTitle(tr("Re-evaluate"));
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    connect(progress, &QProgressDialog::canceled, this, [cancel, progress] {
        cancel->store(true);
        if (progress)
            progress->setLabelText(tr("Cancelling: the evaluation under way is abandoned…"));
    });
    progress->show();
    ProjectStore *store = m_session->store();
    QPointer<MainWindow> self(this);
    // Planning reads the store and running blocks on evaluations: a pool thread does both.
    QFuture<Result<ReevaluationReport>> job = QtConcurrent::run([store, selection, repeats, cancel, self, progress] {
        const Result<ReevaluationPlan> plan = Reevaluation::plan(store, selection, true);
        if (!plan)
            return plan.failureAs<ReevaluationReport>();
        LocalEvaluationBackend backend;
        return Reevaluation::run(store, *plan.value, repeats, backend, *cancel,
                                 [self, progress](int done, int total, const QString &cell) {
                                     QMetaObject::invokeMethod(self, [progress, done, total, cell] {
                                         if (!progress)
                                             return;
                                         progress->setMaximum(total);
                                         progress->setValue(done);
                                         progress->setLabelText(tr("Re-evaluating: %1 of %2 evaluations done (%3)")
                                                                    .arg(done)
                                                                    .arg(total)
                                                                    .arg(cell));
                                     });
                                 });
    });
    job.then(this, [this, progress](const Result<ReevaluationReport> &report) {
        m_reevaluating = false;
        updateReevaluationActions();
        if (progress)
            progress->deleteLater();
        if (!report) {
            QMessageBox::warning(this, tr("Re-evaluate"), tr("Re-evaluation failed: %1").arg(report.error));
            return;
        }
        QStringList notes;
        for (const auto &[cell, why] : report.value->skipped)
            notes << tr("%1 not re-evaluated: %2").arg(cell, why);
        const QString summary = report.value->cancelled
                                    ? tr("Re-evaluation cancelled: %n evaluation(s) stored", nullptr, report.value->stored)
                                    : tr("Re-evaluation done: %n evaluation(s) stored", nullptr, report.value->stored);
        statusBar()->showMessage(summary, 10000);
        if (!notes.isEmpty())
            QMessageBox::information(this, tr("Re-evaluate"), summary + QStringLiteral("\n\n") + notes.join(QLatin1Char('\n')));
        loadReevaluations(currentIteration());
    });
}

void MainWindow::refreshReevaluations()
{
    // The current iteration's, as the workspace holds them (loadReevaluations() keeps them read).
    const IterationId iteration = currentIteration();
    m_cells->setReevaluations(iteration ? m_workspace->reevaluations(iteration) : QList<ReevaluationStats>());
    updateInspectorReevaluation();
}

void MainWindow::loadReevaluations(IterationId iteration)
{
    if (iteration == 0 || !m_session->isOpen())
        return;
    m_session->store()->reevaluations(iteration).then(this, [this, iteration](const StoreResult<QList<ReevaluationRecord>> &records) {
        if (!records)
            return;
        for (const WorldEntry &world : m_workspace->worlds()) {
            if (world.iteration == iteration && world.tree) {
                m_workspace->setReevaluations(iteration, reevaluationStats(iteration, world.tree->cells(), *records.value));
                return;
            }
        }
    });
}

void MainWindow::updateInspectorReevaluation()
{
    const auto tree = currentTree();
    const int index = m_inspector->cellIndex();
    const ReevaluationStats *stats =
        tree && index >= 0 && index < tree->cellCount() ? m_cells->model()->reevaluation(tree->cells().at(index).id) : nullptr;
    m_inspector->setReevaluation(stats ? std::optional<ReevaluationStats>(*stats) : std::nullopt,
                                 ReevaluationBest::of(m_cells->reevaluations()));
    updateReevaluationActions();
}

} // namespace dreamrsi
