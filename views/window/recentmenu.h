#pragma once

#include <QMenu>

namespace dreamrsi {

/// File ▸ Open Recent (object name "menuRecent"): one list of what was open
/// lately, projects first, then tree files and runs, and Clear List
/// ("actionClearRecent"); RemoteWorkbench adds the servers. Kept by UiState.
class RecentMenu final : public QMenu
{
    Q_OBJECT
public:
    explicit RecentMenu(QWidget *parent = nullptr);

    static QStringList recentFiles();
    void addFile(const QString &path);
    void addProject(const QString &path);
    /// The menu again from the settings.
    void rebuild();

signals:
    void projectRequested(const QString &path);
    void fileRequested(const QString &path);
};

} // namespace dreamrsi
