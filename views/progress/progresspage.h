#pragma once

#include "project/projectprogress.h"
#include "project/projectsimulations.h"

#include <QList>

#include <optional>
#include "figures/figuresource.h"

#include <QWidget>

class QCustomPlot;
class QComboBox;
class QLabel;
class QTimer;

namespace dreamrsi {

class Workspace;

/// The Progress tab: best score against cumulative agent calls over the
/// open project's iterations, in iteration order, marked by iteration
/// (docs/online.md#the-recursive-loop). It follows the workspace: a world added, changed or
/// growing by a cell (a live round) redraws it, several changes at once
/// in one redraw.
///
/// A selector above the figure switches to a counterfactual loop's result
/// (docs/online.md, "The counterfactual loop"): one run just simulated, or
/// one stored beside the open project. The figure and its export then show
/// both arms as mean curves with their intervals.
class ProgressPage final : public QWidget, public FigureSource
{
    Q_OBJECT
public:
    explicit ProgressPage(Workspace *workspace, QWidget *parent = nullptr);

    /// The figure shown now: the project's progress or a simulation.
    QCustomPlot *plot() const;
    /// Lists the simulations stored beside the project at `projectPath`
    /// (none for an empty path) after the project's own progress.
    void setProject(const QString &projectPath);
    /// Adds a simulation (just run, or read from a file) and shows it.
    void showSimulation(const QString &label, const SimulationCurves &curves);
    /// The simulation shown now, if the selector is on one that could be read.
    std::optional<SimulationCurves> shownSimulation() const;
    /// The selector's entries (the project's progress first).
    QStringList views() const;
    /// The curves drawn now (one for the open project, none without iterations).
    const QList<ProgressCurve> &curves() const { return m_curves; }
    void setDark(bool dark);

    // FigureSource
    QString figureName() const override;
    FigureExport::Painter figurePainter() override;
    FigureTable figureData() const override;
    /// Redraws now instead of on the next turn of the event loop.
    void refresh();

signals:
    void refreshed();

private:
    void scheduleRefresh();
    void showView(int index);

    struct SimulationView
    {
        QString label;
        QString path;                          ///< empty for a run kept in memory
        std::optional<SimulationCurves> curves; ///< read on first show for stored runs
    };
    QComboBox *m_view = nullptr;
    QCustomPlot *m_simulationPlot = nullptr;
    QList<SimulationView> m_simulations;       ///< entry i + 1 of the selector

    Workspace *m_workspace;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_hint = nullptr;
    QTimer *m_pending = nullptr;
    QList<ProgressCurve> m_curves;
    bool m_dark = false;
};

} // namespace dreamrsi
