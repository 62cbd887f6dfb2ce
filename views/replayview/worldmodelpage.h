#pragma once

#include "worldmodelplot.h"

#include "figures/figuresource.h"
#include "replay/probes.h"
#include "replay/worldmodel.h"

#include <QJsonObject>
#include <QList>
#include <QWidget>

#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QListWidget;
class QTableWidget;
class QTimer;

namespace dreamrsi {

class JobTracker;
class Preferences;
class Workspace;

/// The World model tab (docs/online.md#valuation): the model of how cells
/// score that a dream fits over the project's replay worlds before it draws
/// imagined completions. A dream fits one model per task, so the page shows
/// one task's model at a time (the task selector; it follows the world
/// selected in the window). Per direction (stratum) the first-attempt scores
/// and the gain over the branch's best by depth, each with its sample count
/// and whether it is blind (docs/online.md#blind-strata); the pooled failure
/// rate by depth; the cap; and the probes the next deployment would make
/// (docs/online.md#probes). One panel at a time in the figure (exported like
/// every other figure, its numbers as the figure's data), and every number in
/// the table under it.
///
/// The history is the one a dream of the Dreaming dialog uses
/// (ValuationWorlds::historyOf: approximate worlds only when Settings include
/// them). The models are fitted on a worker through the JobTracker whenever
/// the project's worlds change; the page never blocks the GUI thread.
class WorldModelPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    /// A probe the next deployment would make, with what the page says of it.
    struct PlannedProbe
    {
        ProbeCall call;
        QString direction; ///< the branch's direction ("d3"), empty for an untagged branch
        int count = 0;     ///< the values its stratum holds (gains at that depth, or first scores)
    };
    /// One task's model as the page shows it.
    struct TaskModel
    {
        std::optional<QString> task;         ///< none: the worlds whose tree names no task
        int worlds = 0;                      ///< history worlds of the task the model is fitted over
        QString newestWorld;                 ///< the newest of them: the episode the probes are planned on
        int newestPlace = -1;                ///< its place j in the history
        QJsonObject model;                   ///< WorldModel::toJson
        int maxAttempt = 0;                  ///< the deepest depth the evidence covers
        QList<WorldModel::Evidence> evidence; ///< WorldModel::evidence(maxAttempt)
        QList<PlannedProbe> probes;          ///< Probes::plan on the newest world, the `auto` budget
    };

    WorldModelPage(Workspace *workspace, JobTracker *jobs, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    QComboBox *panelBox() const { return m_panel; }
    /// The task selector: each task of the history with its world count.
    QComboBox *taskBox() const { return m_task; }
    QTableWidget *table() const { return m_table; }
    /// The probes the next deployment would make (one line each, or one "none" line).
    QListWidget *probeList() const { return m_probes; }
    /// The model shown (WorldModel::toJson), empty before the first fit or without history worlds.
    const QJsonObject &model() const { return m_model; }
    /// Every task's model of the last fit, in the order each task first appears in the history.
    const QList<TaskModel> &taskModels() const { return m_tasks; }
    /// The task model shown; none before the first fit or without history worlds.
    const TaskModel *shownTask() const;
    /// History worlds of every task (approximate ones left out unless included).
    int historyWorlds() const { return m_historyWorlds; }
    /// Shows `panel` of the model.
    void showPanel(WorldModelPlot::Panel panel);
    void setDark(bool dark);
    /// The world selected in the window (a workspace row, -1 for none): the
    /// page shows the model of its task.
    void setCurrentWorld(int row);
    /// Settings' "Include approximate worlds": the dreams' history takes them too.
    void setIncludeApproximate(bool include);
    /// Follows the preferences' "Include approximate worlds" (setIncludeApproximate).
    void setPreferences(const Preferences *preferences);
    /// Fits the models again now (on a worker; modelFitted() says when one is shown).
    void refresh();

    /// "circle_packing_26"; a task folder by its folder's name; "no task".
    static QString taskLabel(const std::optional<QString> &task);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

signals:
    /// The model of a task fitted over `worlds` history worlds of that task is shown.
    void modelFitted(int worlds);

private:
    void scheduleRefresh();
    void fitted(QList<TaskModel> tasks);
    /// The task model of the world at workspace row `row`, -1 when none.
    int taskOfRow(int row) const;
    void showTask(int index);
    void redraw();
    void fillTable();
    void fillProbes();

    Workspace *m_workspace;
    JobTracker *m_jobs;
    QComboBox *m_task = nullptr;
    QComboBox *m_panel = nullptr;
    QLabel *m_summary = nullptr;
    QCustomPlot *m_plot = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_probeHeading = nullptr;
    QListWidget *m_probes = nullptr;
    QTimer *m_pending = nullptr;
    QList<TaskModel> m_tasks;
    int m_shown = -1;           ///< index in m_tasks
    QJsonObject m_model;        ///< m_tasks[m_shown].model
    int m_historyWorlds = 0;
    int m_approximateLeftOut = 0;
    int m_currentRow = -1;
    bool m_includeApproximate = false;
    bool m_dark = false;
};

} // namespace dreamrsi
