#pragma once

#include "remote/remoteclient.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPair>
#include <QPointer>
#include <QString>

class QAction;
class QLabel;
class QMainWindow;
class QMenu;

namespace dreamrsi {

class ConnectDialog;
class ProjectPage;
class ProjectSession;
class RemoteProjectSession;
class RoundPanel;

/// File ▸ Connect to Server… in the main window (docs/remote.md): asks for
/// the URL and tokens (ConnectDialog), closes the project open, and shows
/// the served project as a project followed read-only is shown, through the
/// window's own paths — its worlds, versions, values and approvals in the
/// Workspace (RemoteProjectSession), its rounds in the Live Round panel
/// (RoundPanel::followRemote: the tree growing, attempts running and
/// stalled, steering, Kill and a waiting loop's approval through the
/// server with the steering token). The title bar and a status-bar label
/// say "remote: HOST", the label also when the connection is lost and when
/// it is tried again. A round that ends becomes a world (the project read
/// again). Open Recent lists the servers connected to (their URLs, never a
/// token); tokens are kept for the session, or in the keychain when asked.
/// Opening a local project ends the connection.
class RemoteWorkbench final : public QObject
{
    Q_OBJECT
public:
    /// `window` gives the status bar, the title and File ▸ Open Recent
    /// ("menuRecent"); the served project goes into `page`'s workspace and
    /// its rounds into `panel`, in place of `projectSession`'s project.
    RemoteWorkbench(QMainWindow *window, ProjectPage *page, ProjectSession *projectSession, RoundPanel *panel);
    ~RemoteWorkbench() override;

    QAction *connectAction() const { return m_connect; }
    RemoteProjectSession *session() const { return m_session; }
    bool isConnected() const;
    /// The status bar's "remote: HOST" label.
    QLabel *statusLabel() const { return m_status; }

    /// Connect to Server…: the dialog (prefilled with `url` and the tokens
    /// known for it); connectTo() once accepted.
    ConnectDialog *showDialog(const QString &url = {});
    /// Shows the served project in the window (what the dialog's Connect does).
    void connectTo(const RemoteProject &project, const QByteArray &steeringToken);
    /// Ends the connection (the window's content stays until something else is opened).
    void disconnectFromServer();

    /// The servers connected to lately, newest first (URLs only).
    static QStringList recentServers();

signals:
    void connected(const QString &host);
    void loaded(const QString &host);
    void connectFailed(const QString &host, const QString &message);

private:
    void updateTitle();
    void setConnectionText(const QString &text, bool lost);
    void addRecentServer(const QString &url);
    void addRecentEntries();
    void clearRecentServers();

    QMainWindow *m_window;
    ProjectPage *m_page;
    ProjectSession *m_projectSession;
    RoundPanel *m_panel;
    RemoteProjectSession *m_session;
    QAction *m_connect = nullptr;
    QLabel *m_status = nullptr;
    QPointer<QMenu> m_recentMenu;
    bool m_settingTitle = false;
    /// Tokens given this session, by URL: a server connected to again from Open Recent asks for nothing.
    QHash<QString, QPair<QByteArray, QByteArray>> m_sessionTokens;
};

} // namespace dreamrsi
