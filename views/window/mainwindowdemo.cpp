// File ▸ Reset Demo: the bundled demo's private copy (`--demo`) made again
// from the bundled demo, the user's changes to it discarded.
#include "mainwindow.h"

#include "live/roundpanel.h"
#include "session/jobtracker.h"
#include "session/projectsession.h"
#include "session/sweeprunner.h"

#include "store/projectlock.h"
#include "store/projectstore.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>

namespace dreamrsi {

void MainWindow::setDemo(const DemoProject &demo)
{
    m_demo = demo;
    m_demoCopy = demo.copyPath();
    updateActions();
}

void MainWindow::createResetDemoAction(QMenu *file)
{
    m_resetDemoAction = file->addAction(tr("Reset &Demo…"));
    m_resetDemoAction->setObjectName(QStringLiteral("actionResetDemo"));
    m_resetDemoAction->setStatusTip(tr("Replace the demo project's private copy with the bundled demo, discarding your changes to it"));
    m_resetDemoAction->setEnabled(false);
    connect(m_resetDemoAction, &QAction::triggered, this, &MainWindow::resetDemo);
}

void MainWindow::updateResetDemoAction()
{
    // The open project is the demo's private copy, this window writes it and
    // nothing of this window writes to it now.
    const bool onCopy = m_demo && !m_demoCopy.isEmpty() && m_session->isOpen() && !m_session->isReadOnly()
                        && QFileInfo(m_session->path()) == QFileInfo(m_demoCopy);
    m_resetDemoAction->setEnabled(onCopy && !m_roundPanel->isRunning() && !m_runner->isRunning());
}

void MainWindow::resetDemo()
{
    updateResetDemoAction();
    if (!m_resetDemoAction->isEnabled())
        return;
    auto *ask = new QMessageBox(QMessageBox::Warning, tr("Reset the demo project?"),
                                tr("This replaces your copy of the demo project with the bundled demo: the rounds, "
                                   "policy versions, replays and approvals you added to it are lost."),
                                QMessageBox::Cancel, this);
    ask->setObjectName(QStringLiteral("resetDemoQuestion"));
    ask->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *reset = ask->addButton(tr("Reset Demo"), QMessageBox::DestructiveRole);
    ask->setDefaultButton(QMessageBox::Cancel);
    connect(ask, &QMessageBox::finished, this, [this, ask, reset] {
        if (ask->clickedButton() == reset)
            replaceDemoCopy();
    });
    ask->open();
}

void MainWindow::replaceDemoCopy()
{
    updateResetDemoAction(); // still the copy, still idle?
    if (!m_resetDemoAction->isEnabled())
        return;
    const QString copy = m_session->path();
    m_resetDemoAction->setEnabled(false);
    statusBar()->showMessage(tr("Resetting the demo project…"));
    m_roundPanel->stopFollowing();
    // The copy's files are replaced only once the store has let go of them;
    // the session's answers still on their way belong to the old copy
    // (ProjectSession's scope, renewed as opening another project does).
    m_jobs->renew(QStringLiteral("project"));
    m_jobs->then(QStringLiteral("reset demo"), m_session->store()->close(), this, [this, copy](StoreResult<Done>) {
        const std::optional<WriterInfo> writer = ProjectLock::liveWriter(copy);
        const Result<QString> made =
            writer ? Result<QString>::failure(tr("Another process (pid %1) writes the demo project").arg(writer->pid))
                   : m_demo->install(DemoProject::Mode::Replace);
        if (!made) {
            QMessageBox::warning(this, tr("Cannot reset the demo project"), made.error);
            if (QFileInfo::exists(copy))
                openProject(copy);
            return;
        }
        connect(m_session, &ProjectSession::loaded, this,
                [this] { statusBar()->showMessage(tr("The demo project is the bundled demo again"), 8000); },
                Qt::SingleShotConnection);
        openProject(*made.value);
    });
}

} // namespace dreamrsi
