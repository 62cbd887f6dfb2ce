// The window's re-evaluation (docs/online.md#re-evaluating-the-best): the
// actions, the question, the progress with Cancel and the outcome; the work
// runs in a ReevaluationController (views/session).
#include "reevaluationactions.h"

#include "cellspage.h"
#include "inspectorwidget.h"

#include "models/celltablemodel.h"
#include "models/workspace.h"
#include "session/preferences.h"
#include "session/projectsession.h"
#include "session/reevaluationcontroller.h"

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableView>

namespace dreamrsi {

namespace {

struct Asked
{
    int top = 0;
    int repeats = 0;
    bool onSlurm = false;
};

/// Asks how many repeats (and, for the best cells, how many cells) and
/// where they run: the answers, or nothing when the person cancelled.
std::optional<Asked> ask(QWidget *parent, const QString &what, bool askTop)
{
    QDialog dialog(parent);
    dialog.setObjectName(QStringLiteral("reevaluateDialog"));
    // Titles are short: the window manager adds the application's name and
    // cuts what does not fit. The text says what is re-evaluated.
    dialog.setWindowTitle(ReevaluationActions::tr("Re-evaluate"));
    auto *form = new QFormLayout(&dialog);
    auto *label = new QLabel(what);
    label->setWordWrap(true);
    form->addRow(label);
    auto *top = new QSpinBox;
    top->setObjectName(QStringLiteral("reevaluateTop"));
    top->setRange(1, 1000);
    top->setValue(3);
    if (askTop)
        form->addRow(ReevaluationActions::tr("Best cells (K):"), top);
    auto *repeats = new QSpinBox;
    repeats->setObjectName(QStringLiteral("reevaluateRepeats"));
    repeats->setRange(1, 1000);
    repeats->setValue(5);
    repeats->setToolTip(ReevaluationActions::tr("Evaluations per cell; an interval needs at least two that succeed"));
    form->addRow(ReevaluationActions::tr("Repeats per cell (R):"), repeats);
    auto *backend = new QComboBox;
    backend->setObjectName(QStringLiteral("reevaluateBackend"));
    backend->addItem(ReevaluationActions::tr("This machine"));
    backend->addItem(ReevaluationActions::tr("Slurm (the cluster in Preferences)"));
    backend->setToolTip(ReevaluationActions::tr("Where the evaluations run, as `dreamrsi reevaluate --backend` chooses"));
    form->addRow(ReevaluationActions::tr("Run on:"), backend);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    buttons->button(QDialogButtonBox::Ok)->setText(ReevaluationActions::tr("Re-evaluate"));
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted)
        return std::nullopt;
    return Asked{askTop ? top->value() : 0, repeats->value(), backend->currentIndex() == 1};
}

} // namespace

ReevaluationActions::ReevaluationActions(QWidget *window, QMenu *roundMenu, CellsPage *cells, InspectorWidget *inspector,
                                         ProjectSession *session, Workspace *workspace, JobTracker *jobs,
                                         const Preferences *preferences, Shown shown)
    : QObject(window)
    , m_window(window)
    , m_cells(cells)
    , m_inspector(inspector)
    , m_session(session)
    , m_workspace(workspace)
    , m_preferences(preferences)
    , m_shown(std::move(shown))
    , m_controller(new ReevaluationController(jobs, this))
{
    m_cellAction = new QAction(tr("Re-evaluate…"), this);
    m_cellAction->setObjectName(QStringLiteral("reevaluateCellAction"));
    m_cellAction->setToolTip(tr("Evaluate the current cell's stored program again, several times"));
    QTableView *view = m_cells->view();
    view->addAction(m_cellAction);
    view->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(m_cellAction, &QAction::triggered, this, [this] {
        const QModelIndex current = m_cells->view()->currentIndex();
        if (current.isValid())
            reevaluateCell(m_cells->proxy()->mapToSource(current).row());
    });
    connect(m_inspector, &InspectorWidget::reevaluateRequested, this, &ReevaluationActions::reevaluateCell);

    m_bestAction = new QAction(tr("Re-evaluate the &Best…"), this);
    m_bestAction->setObjectName(QStringLiteral("reevaluateBestAction"));
    m_bestAction->setToolTip(tr("Evaluate the best cells of the shown iteration again, several times each"));
    if (roundMenu) {
        roundMenu->addSeparator();
        roundMenu->addAction(m_bestAction);
    }
    connect(m_bestAction, &QAction::triggered, this, &ReevaluationActions::reevaluateBest);

    m_controller->follow(session->store(), workspace);
    connect(m_workspace, &Workspace::reevaluationsChanged, this, [this](qint64 iteration) {
        if (iteration == m_shown.iteration())
            refresh();
    });
    connect(m_controller, &ReevaluationController::runningChanged, this, &ReevaluationActions::updateEnabled);
    connect(m_controller, &ReevaluationController::finished, this, [this](const Result<ReevaluationReport> &report) {
        if (!report)
            QMessageBox::warning(m_window, tr("Re-evaluate"), tr("Re-evaluation failed: %1").arg(report.error));
        else
            finish(*report.value);
    });
    updateEnabled();
}

void ReevaluationActions::updateEnabled()
{
    const bool can = m_shown.iteration() > 0 && !m_session->isReadOnly() && !m_controller->isRunning();
    m_cellAction->setEnabled(can);
    m_bestAction->setEnabled(can);
    m_inspector->setReevaluationEnabled(can);
}

void ReevaluationActions::reevaluateCell(int cellIndex)
{
    const auto tree = m_shown.tree();
    const IterationId iteration = m_shown.iteration();
    if (!tree || cellIndex < 0 || cellIndex >= tree->cellCount() || iteration == 0)
        return;
    const QString id = tree->cells().at(cellIndex).id;
    const auto asked = ask(m_window,
                           tr("Evaluate the stored program of %1 again, R times. Its recorded score does not "
                              "change.").arg(id),
                           false);
    if (asked)
        start(ReevaluationSelection{iteration, 0, {id}}, asked->repeats, asked->onSlurm);
}

void ReevaluationActions::reevaluateBest()
{
    const IterationId iteration = m_shown.iteration();
    const auto asked = ask(m_window,
                           tr("Evaluate the best K cells of iteration %1 by recorded score again, R times "
                              "each. The recorded scores do not change.").arg(iteration),
                           true);
    if (asked)
        start(ReevaluationSelection{iteration, asked->top, {}}, asked->repeats, asked->onSlurm);
}

void ReevaluationActions::start(const ReevaluationSelection &selection, int repeats, bool onSlurm)
{
    if (!m_controller->start(m_session->store(), selection, repeats,
                             onSlurm ? std::optional<SlurmSettings>(Preferences::of(m_preferences).slurm()) : std::nullopt))
        return;
    QPointer<QProgressDialog> progress = new QProgressDialog(tr("Re-evaluating…"), tr("Cancel"), 0, 0, m_window);
    progress->setObjectName(QStringLiteral("reevaluateProgress"));
    progress->setWindowTitle(tr("Re-evaluate"));
    progress->setMinimumDuration(0);
    progress->setAutoClose(false);
    progress->setAutoReset(false);
    connect(progress, &QProgressDialog::canceled, this, [this, progress] {
        m_controller->cancel();
        if (progress)
            progress->setLabelText(tr("Cancelling: the evaluation under way is abandoned…"));
    });
    connect(m_controller, &ReevaluationController::progressed, progress, [progress](int done, int total, const QString &cell) {
        progress->setMaximum(total);
        progress->setValue(done);
        progress->setLabelText(tr("Re-evaluating: %1 of %2 evaluations done (%3)").arg(done).arg(total).arg(cell));
    });
    connect(m_controller, &ReevaluationController::runningChanged, progress, [progress](bool running) {
        if (!running)
            progress->deleteLater();
    });
    progress->show();
}

void ReevaluationActions::finish(const ReevaluationReport &report)
{
    QStringList notes;
    for (const auto &[cell, why] : report.skipped)
        notes << tr("%1 not re-evaluated: %2").arg(cell, why);
    const QString summary = report.cancelled ? tr("Re-evaluation cancelled: %n evaluation(s) stored", nullptr, report.stored)
                                             : tr("Re-evaluation done: %n evaluation(s) stored", nullptr, report.stored);
    emit message(summary);
    if (!notes.isEmpty())
        QMessageBox::information(m_window, tr("Re-evaluate"), summary + QStringLiteral("\n\n") + notes.join(QLatin1Char('\n')));
}

void ReevaluationActions::refresh()
{
    // The shown iteration's, as the workspace holds them (the controller keeps them read).
    const IterationId iteration = m_shown.iteration();
    m_cells->setReevaluations(iteration ? m_workspace->reevaluations(iteration) : QList<ReevaluationStats>());
    updateInspector();
}

void ReevaluationActions::updateInspector()
{
    const auto tree = m_shown.tree();
    const int index = m_inspector->cellIndex();
    const ReevaluationStats *stats =
        tree && index >= 0 && index < tree->cellCount() ? m_cells->model()->reevaluation(tree->cells().at(index).id) : nullptr;
    m_inspector->setReevaluation(stats ? std::optional<ReevaluationStats>(*stats) : std::nullopt,
                                 ReevaluationBest::of(m_cells->reevaluations()));
    updateEnabled();
}

} // namespace dreamrsi
