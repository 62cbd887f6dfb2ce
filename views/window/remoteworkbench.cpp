#include "remoteworkbench.h"

#include "remote/connectdialog.h"

#include "projectpage.h"

#include "live/roundpanel.h"
#include "models/workspace.h"
#include "policies/policiespage.h"
#include "session/projectsession.h"
#include "session/remotefollower.h"
#include "session/remoteprojectsession.h"
#include "session/roundcontroller.h"
#include "session/uistate.h"

#include <QAction>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QStyle>

namespace dreamrsi {

RemoteWorkbench::RemoteWorkbench(QMainWindow *window, ProjectPage *page, ProjectSession *projectSession, RoundPanel *panel)
    : QObject(window)
    , m_window(window)
    , m_page(page)
    , m_projectSession(projectSession)
    , m_panel(panel)
    , m_session(new RemoteProjectSession(page->workspace(), page->jobs(), this))
{
    setObjectName(QStringLiteral("remoteWorkbench"));
    m_connect = new QAction(QIcon::fromTheme(QStringLiteral("network-server"), window->style()->standardIcon(QStyle::SP_DriveNetIcon)),
                            tr("Connect to &Server…"), this);
    m_connect->setObjectName(QStringLiteral("actionConnectToServer"));
    m_connect->setStatusTip(tr("Open a project served by dreamrsi serve (here or through ssh -L) and follow its rounds"));
    connect(m_connect, &QAction::triggered, this, [this] { showDialog(); });

    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("remoteStatus"));
    m_status->hide();
    window->statusBar()->addPermanentWidget(m_status);

    connect(m_session, &RemoteProjectSession::opened, this, [this, panel](const QString &host, const QString &) {
        addRecentServer(m_session->url());
        panel->showProject(QStringLiteral("remote:") + m_session->url()); // the panel shows nothing of the project before
        panel->followRemote(m_session->follower());
        // A lost connection is said beside the host, and when it is tried again.
        connect(m_session->follower(), &RemoteFollower::connectionChanged, this,
                [this, host](bool connected, const QString &message) {
                    setConnectionText(connected ? tr("remote: %1").arg(host) : tr("remote: %1 — %2").arg(host, message), !connected);
                    if (!connected)
                        m_window->statusBar()->showMessage(message, 10000);
                });
        // The Progress and Compare tabs read a project file: they get the
        // served iterations' copy once it is made (copyReady below).
        m_page->setProject(QString());
        setConnectionText(tr("remote: %1").arg(host), false);
        updateTitle();
        m_window->statusBar()->showMessage(tr("Connected to %1: loading its project…").arg(host));
        emit connected(host);
    });
    connect(m_session, &RemoteProjectSession::openFailed, this, [this](const QString &host, const QString &message) {
        m_session->close();
        m_status->hide();
        m_window->statusBar()->showMessage(tr("Could not connect to %1").arg(host), 8000);
        auto *box = new QMessageBox(QMessageBox::Warning, tr("Connect to Server"), tr("Could not open the project served at %1.").arg(host),
                                    QMessageBox::Ok, m_window);
        box->setObjectName(QStringLiteral("connectFailedBox"));
        box->setInformativeText(message);
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
        emit connectFailed(host, message);
    });
    connect(m_session, &RemoteProjectSession::stageFailed, this, [this](const QString &message) {
        m_window->statusBar()->showMessage(tr("Part of the served project could not be read: %1").arg(message), 10000);
    });
    connect(m_session, &RemoteProjectSession::loaded, this, [this](const QString &host) {
        Workspace *w = m_page->workspace();
        m_window->statusBar()->showMessage(tr("remote: %1 — project %2: %3 worlds, %4 policy versions")
                                               .arg(host, m_session->name())
                                               .arg(w->worlds().size())
                                               .arg(w->versions().size()),
                                           6000);
        if (m_page->currentWorld() < 0 && !w->worlds().isEmpty())
            m_page->setCurrentWorld(0);
        updateTitle();
        emit loaded(host);
        // Connected, or a served round ended (reload): the iterations copied again for Progress and Compare.
        m_session->copyIterations();
    });
    connect(m_session, &RemoteProjectSession::copyStarted, this, [this] {
        m_window->statusBar()->showMessage(tr("remote: %1 — reading its iterations for Progress and Compare…").arg(m_session->host()));
    });
    connect(m_session, &RemoteProjectSession::copyReady, this, [this](const QString &path) {
        m_page->setServedProject(path);
        m_window->statusBar()->showMessage(tr("remote: %1 — Progress and Compare show its iterations").arg(m_session->host()), 6000);
    });
    connect(m_session, &RemoteProjectSession::copyFailed, this, [this](const QString &message) {
        m_window->statusBar()->showMessage(
            tr("remote: %1 — Progress and Compare could not read its iterations: %2").arg(m_session->host(), message), 10000);
    });
    connect(m_session, &RemoteProjectSession::approvalStored, this, [this](const QString &name) {
        m_window->statusBar()->showMessage(name.isEmpty() ? tr("Declined at %1").arg(m_session->host())
                                                          : tr("%1 approved at %2: the next round there deploys it").arg(name, m_session->host()),
                                           8000);
    });
    connect(m_session, &RemoteProjectSession::approvalFailed, this, [this](const QString &message) {
        QMessageBox::warning(m_window, tr("Approval not stored"), message);
    });
    // A round of the served project ended: its iteration is a world now.
    connect(panel, &RoundPanel::remoteRoundFinished, m_session, &RemoteProjectSession::reload);
    // Approve in the Policies tab goes to the server while a served project is shown
    // (the window's own path stores nothing then: no project file is open).
    connect(page->policiesPage(), &PoliciesPage::approvalRequested, this, [this](const Approval &approval) {
        if (!isConnected())
            return;
        QString name;
        for (const PolicyVersion &v : m_page->workspace()->versions()) {
            if (v.id == approval.version)
                name = v.name;
        }
        m_session->approve(name, approval.who, approval.note);
    });
    // Opening a project file ends the connection.
    connect(projectSession, &ProjectSession::opened, this, [this] { disconnectFromServer(); });
    connect(window, &QWidget::windowTitleChanged, this, [this] {
        if (!m_settingTitle)
            updateTitle();
    });
    // Open Recent lists the servers too (URLs only).
    m_recentMenu = window->menuBar()->findChild<QMenu *>(QStringLiteral("menuRecent"));
    if (m_recentMenu) {
        connect(m_recentMenu, &QMenu::aboutToShow, this, &RemoteWorkbench::addRecentEntries);
        // The window disables the menu when it lists no file: servers count too.
        connect(m_recentMenu->menuAction(), &QAction::changed, this, [this] {
            if (m_recentMenu && !m_recentMenu->isEnabled() && !recentServers().isEmpty())
                m_recentMenu->setEnabled(true);
        });
        if (!recentServers().isEmpty())
            m_recentMenu->setEnabled(true);
    }
}

RemoteWorkbench::~RemoteWorkbench() = default;

bool RemoteWorkbench::isConnected() const
{
    return m_session->isOpen();
}

ConnectDialog *RemoteWorkbench::showDialog(const QString &url)
{
    auto *dialog = new ConnectDialog(m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const QString start = url.isEmpty() ? recentServers().value(0) : url;
    if (!start.isEmpty()) {
        dialog->setUrl(start);
        if (const auto known = m_sessionTokens.constFind(start); known != m_sessionTokens.cend())
            dialog->setTokens(known->first, known->second);
    }
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        const RemoteProject project = dialog->project();
        const QByteArray steering = dialog->steeringToken();
        const QString key = project.base.toString() + QLatin1Char('/');
        m_sessionTokens.insert(key, {project.token, steering});
        if (dialog->keychainAvailable()) {
            // Kept when asked; otherwise nothing of it stays in the keychain.
            ConnectDialog::storeInKeychain(key, dialog->remember() ? project.token : QByteArray(), steering,
                                           [this](const QString &error) {
                                               if (!error.isEmpty())
                                                   m_window->statusBar()->showMessage(
                                                       tr("The token was not kept in the keychain: %1").arg(error), 8000);
                                           },
                                           this);
        }
        connectTo(project, steering);
    });
    dialog->open();
    return dialog;
}

void RemoteWorkbench::connectTo(const RemoteProject &project, const QByteArray &steeringToken)
{
    // The window shows the served project instead of the one open.
    m_panel->stopFollowing();
    m_projectSession->close();
    m_window->statusBar()->showMessage(tr("Connecting to %1…").arg(project.host()));
    m_session->open(project, steeringToken);
}

void RemoteWorkbench::disconnectFromServer()
{
    if (!m_session->isOpen())
        return;
    if (m_panel->controller()->remoteFollower() == m_session->follower())
        m_panel->stopFollowing();
    m_session->close(); // removes the iterations' copy
    m_status->hide();
}

void RemoteWorkbench::updateTitle()
{
    if (!m_session->isOpen())
        return;
    const auto &worlds = m_page->workspace()->worlds();
    const int row = m_page->currentWorld();
    const QString shown = row >= 0 && row < worlds.size() ? worlds.at(row).name : m_session->name();
    const QString title = tr("%1 (remote: %2) — Dream-RSI Workbench").arg(shown, m_session->host());
    if (m_window->windowTitle() == title)
        return;
    m_settingTitle = true;
    m_window->setWindowTitle(title);
    m_settingTitle = false;
}

void RemoteWorkbench::setConnectionText(const QString &text, bool lost)
{
    m_status->setText(text);
    m_status->setStyleSheet(lost ? QStringLiteral("color: #b00020;") : QString());
    m_status->show();
}

QStringList RemoteWorkbench::recentServers()
{
    return UiState::recentServers();
}

void RemoteWorkbench::clearRecentServers()
{
    UiState::clearRecentServers();
}

void RemoteWorkbench::addRecentServer(const QString &url)
{
    UiState::addRecentServer(url);
    if (m_recentMenu)
        m_recentMenu->setEnabled(true);
}

void RemoteWorkbench::addRecentEntries()
{
    if (!m_recentMenu)
        return;
    for (QAction *a : m_recentMenu->actions()) {
        if (a->property("remoteServer").isValid())
            delete a;
    }
    const QStringList servers = recentServers();
    // The window's Clear List clears the servers too.
    if (QAction *clear = m_recentMenu->findChild<QAction *>(QStringLiteral("actionClearRecent"))) {
        connect(clear, &QAction::triggered, this, &RemoteWorkbench::clearRecentServers, Qt::UniqueConnection);
    }
    if (servers.isEmpty())
        return;
    QAction *before = nullptr;
    for (QAction *a : m_recentMenu->actions()) {
        if (a->isSeparator() && a->text().isEmpty() && !before)
            before = a; // the separator above Clear List
    }
    QAction *section = m_recentMenu->insertSection(before, tr("Servers"));
    section->setProperty("remoteServer", QString());
    for (const QString &url : servers) {
        auto *a = new QAction(tr("%1 (remote)").arg(url), m_recentMenu);
        a->setProperty("remoteServer", url);
        a->setObjectName(QStringLiteral("actionRecentServer"));
        a->setStatusTip(tr("Connect to the project served at %1").arg(url));
        connect(a, &QAction::triggered, this, [this, url] {
            const auto known = m_sessionTokens.constFind(url);
            const Result<QUrl> base = RemoteClient::baseOf(url);
            if (known != m_sessionTokens.cend() && base) {
                connectTo(RemoteProject{*base.value, known->first}, known->second);
                return;
            }
            showDialog(url); // the keychain's tokens, when kept there, fill it
        });
        m_recentMenu->insertAction(before, a);
    }
}

} // namespace dreamrsi
