#pragma once

#include "model/discoverytree.h"
#include "store/storetypes.h"

#include <QObject>

#include <functional>
#include <memory>

class QAction;
class QMenu;
class QWidget;

namespace dreamrsi {

class CellsPage;
class InspectorWidget;
class JobTracker;
class ProjectSession;
class ReevaluationController;
class Preferences;
class Workspace;
struct ReevaluationSelection;

/// The window's re-evaluation (docs/online.md#re-evaluating-the-best), its
/// widgets only: Re-evaluate… in the Cells tab and the inspector, Round ▸
/// Re-evaluate the Best…, the question (R, K, where to run), the progress
/// dialog with Cancel, the outcome, and the stored statistics shown in the
/// Cells table and the inspector. The work is a ReevaluationController's.
class ReevaluationActions final : public QObject
{
    Q_OBJECT
public:
    struct Shown
    {
        /// The project iteration shown, 0 for none (a loose file, no project).
        std::function<IterationId()> iteration;
        std::function<std::shared_ptr<const DiscoveryTree>()> tree;
    };
    /// `window` parents the dialogs; the best-cells action goes at the end of `roundMenu`.
    ReevaluationActions(QWidget *window, QMenu *roundMenu, CellsPage *cells, InspectorWidget *inspector,
                        ProjectSession *session, Workspace *workspace, JobTracker *jobs,
                        const Preferences *preferences, Shown shown);

    ReevaluationController *controller() const { return m_controller; }
    QAction *cellAction() const { return m_cellAction; }
    QAction *bestAction() const { return m_bestAction; }

    /// The shown world changed: its repeats into the Cells table and the inspector.
    void refresh();
    /// The inspected cell changed: its repeats into the inspector.
    void updateInspector();

signals:
    /// A line for the status bar.
    void message(const QString &text);

private:
    void updateEnabled();
    /// Asks R, then re-evaluates the cell `cellIndex` of the shown iteration.
    void reevaluateCell(int cellIndex);
    void reevaluateBest();
    void start(const ReevaluationSelection &selection, int repeats, bool onSlurm);
    void finish(const struct ReevaluationReport &report);

    QWidget *m_window;
    CellsPage *m_cells;
    InspectorWidget *m_inspector;
    ProjectSession *m_session;
    Workspace *m_workspace;
    const Preferences *m_preferences; ///< the cluster of a re-evaluation on Slurm, read when it starts
    Shown m_shown;
    ReevaluationController *m_controller;
    QAction *m_cellAction = nullptr;
    QAction *m_bestAction = nullptr;
};

} // namespace dreamrsi
