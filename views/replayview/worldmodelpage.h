#pragma once

#include "worldmodelplot.h"

#include "figures/figuresource.h"

#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QCustomPlot;
class QLabel;
class QTableWidget;
class QTimer;

namespace dreamrsi {

class JobTracker;
class Workspace;

/// The World model tab (docs/online.md#valuation): the model of how cells
/// score that a dream fits over the project's replay worlds before it draws
/// imagined completions. Per direction (stratum) the first-attempt scores and
/// the gain over the branch's best by depth, each with its sample count; the
/// pooled failure rate by depth; the cap. One panel at a time in the figure
/// (exported like every other figure, its numbers as the figure's data), and
/// every number in the table under it.
///
/// The model is fitted on a worker through the JobTracker whenever the
/// project's worlds change; the page never blocks the GUI thread.
class WorldModelPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    WorldModelPage(Workspace *workspace, JobTracker *jobs, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    QComboBox *panelBox() const { return m_panel; }
    QTableWidget *table() const { return m_table; }
    /// The model shown (WorldModel::toJson), empty before the first fit or without history worlds.
    const QJsonObject &model() const { return m_model; }
    /// Shows `panel` of the model.
    void showPanel(WorldModelPlot::Panel panel);
    void setDark(bool dark);
    /// Fits the model again now (on a worker; modelFitted() says when it is shown).
    void refresh();

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;

signals:
    /// A model fitted over `worlds` history worlds is shown.
    void modelFitted(int worlds);

private:
    void scheduleRefresh();
    void redraw();
    void fillTable();

    Workspace *m_workspace;
    JobTracker *m_jobs;
    QComboBox *m_panel = nullptr;
    QLabel *m_summary = nullptr;
    QCustomPlot *m_plot = nullptr;
    QTableWidget *m_table = nullptr;
    QTimer *m_pending = nullptr;
    QJsonObject m_model;
    int m_worlds = 0;
    bool m_dark = false;
};

} // namespace dreamrsi
