#pragma once

#include "session/demoproject.h"

#include <QObject>

#include <optional>

class QAction;
class QWidget;

namespace dreamrsi {

class JobTracker;
class ProjectSession;
class RoundPanel;
class SweepRunner;

/// File ▸ Reset Demo: the bundled demo's private copy (`--demo`) made again
/// from the bundled demo, the user's changes to it discarded. On while the
/// copy is the open project, writable, with no round or replay running.
/// The action, the question and what is said; the files are
/// session/demoproject's (replaceDemoCopy).
class DemoReset final : public QObject
{
    Q_OBJECT
public:
    /// `window` parents the question and the action.
    DemoReset(ProjectSession *session, JobTracker *jobs, RoundPanel *round, SweepRunner *runner, QWidget *window);

    QAction *action() const { return m_action; }
    /// The bundled demo (app/workbench/main.cpp sets it; tests name the source folder's).
    void setDemo(const DemoProject &demo);
    /// Whether Reset Demo is on now; the action follows.
    void update();
    /// Asks ("resetDemoQuestion"), then closes the copy, makes it again and asks to open it (openRequested).
    void reset();

signals:
    void openRequested(const QString &path);
    void statusMessage(const QString &text, int timeoutMs);

private:
    /// Replaces the open demo copy by the bundled demo and reopens it (confirmed).
    void replaceCopy();

    ProjectSession *m_session;
    JobTracker *m_jobs;
    RoundPanel *m_round;
    SweepRunner *m_runner;
    QWidget *m_window;
    QAction *m_action;
    std::optional<DemoProject> m_demo; ///< the bundled demo, when the window knows it
    QString m_copy;                    ///< its private copy's path
};

} // namespace dreamrsi
