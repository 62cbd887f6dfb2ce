#pragma once

#include "project/projectprogress.h"

#include <QList>
#include <QWidget>

class QCustomPlot;
class QLabel;
class QTimer;

namespace dreamrsi {

class Workspace;

/// The Progress tab: best score against cumulative agent calls over the
/// open project's iterations, in iteration order, marked by iteration
/// (online.md §5). It follows the workspace: a world added, changed or
/// growing by a cell (a live round) redraws it, several changes at once
/// in one redraw.
class ProgressPage final : public QWidget
{
    Q_OBJECT
public:
    explicit ProgressPage(Workspace *workspace, QWidget *parent = nullptr);

    QCustomPlot *plot() const { return m_plot; }
    /// The curves drawn now (one for the open project, none without iterations).
    const QList<ProgressCurve> &curves() const { return m_curves; }
    void setDark(bool dark);
    /// Redraws now instead of on the next turn of the event loop.
    void refresh();

signals:
    void refreshed();

private:
    void scheduleRefresh();

    Workspace *m_workspace;
    QCustomPlot *m_plot = nullptr;
    QLabel *m_hint = nullptr;
    QTimer *m_pending = nullptr;
    QList<ProgressCurve> m_curves;
    bool m_dark = false;
};

} // namespace dreamrsi
