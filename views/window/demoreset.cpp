#include "demoreset.h"

#include "live/roundpanel.h"
#include "session/jobtracker.h"
#include "session/projectsession.h"
#include "session/sweeprunner.h"

#include <QAction>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

namespace dreamrsi {

DemoReset::DemoReset(ProjectSession *session, JobTracker *jobs, RoundPanel *round, SweepRunner *runner, QWidget *window)
    : QObject(window)
    , m_session(session)
    , m_jobs(jobs)
    , m_round(round)
    , m_runner(runner)
    , m_window(window)
    , m_action(new QAction(tr("Reset &Demo…"), window))
{
    m_action->setObjectName(QStringLiteral("actionResetDemo"));
    m_action->setStatusTip(tr("Replace the demo project's private copy with the bundled demo, discarding your changes to it"));
    m_action->setEnabled(false);
    connect(m_action, &QAction::triggered, this, &DemoReset::reset);
}

void DemoReset::setDemo(const DemoProject &demo)
{
    m_demo = demo;
    m_copy = demo.copyPath();
    update();
}

void DemoReset::update()
{
    // The open project is the demo's private copy, this window writes it and
    // nothing of this window writes to it now.
    const bool onCopy = m_demo && !m_copy.isEmpty() && m_session->isOpen() && !m_session->isReadOnly()
                        && QFileInfo(m_session->path()) == QFileInfo(m_copy);
    m_action->setEnabled(onCopy && !m_round->isRunning() && !m_runner->isRunning());
}

void DemoReset::reset()
{
    update();
    if (!m_action->isEnabled())
        return;
    auto *ask = new QMessageBox(QMessageBox::Warning, tr("Reset the demo project?"),
                                tr("This replaces your copy of the demo project with the bundled demo: the rounds, "
                                   "policy versions, replays and approvals you added to it are lost."),
                                QMessageBox::Cancel, m_window);
    ask->setObjectName(QStringLiteral("resetDemoQuestion"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *reset = ask->addButton(tr("Reset Demo"), QMessageBox::DestructiveRole);
    ask->setDefaultButton(QMessageBox::Cancel);
    connect(ask, &QMessageBox::finished, this, [this, ask, reset] {
        if (ask->clickedButton() == reset)
            replaceCopy();
    });
    ask->open();
}

void DemoReset::replaceCopy()
{
    update(); // still the copy, still idle?
    if (!m_action->isEnabled())
        return;
    m_action->setEnabled(false);
    emit statusMessage(tr("Resetting the demo project…"), 0);
    m_round->stopFollowing();
    replaceDemoCopy(*m_demo, m_session, m_jobs, this, [this](DemoReplacement replaced) {
        const Result<QString> made =
            replaced.writer ? Result<QString>::failure(tr("Another process (pid %1) writes the demo project").arg(replaced.writer->pid))
                            : replaced.made;
        if (!made) {
            QMessageBox::warning(m_window, tr("Cannot reset the demo project"), made.error);
            if (QFileInfo::exists(replaced.copy))
                emit openRequested(replaced.copy);
            return;
        }
        connect(m_session, &ProjectSession::loaded, this,
                [this] { emit statusMessage(tr("The demo project is the bundled demo again"), 8000); },
                Qt::SingleShotConnection);
        emit openRequested(*made.value);
    });
}

} // namespace dreamrsi
