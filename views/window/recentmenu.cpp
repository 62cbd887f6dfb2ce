#include "recentmenu.h"

#include "session/demoproject.h"

#include "import/runimport.h"
#include "session/uistate.h"

#include <QDir>
#include <QFileInfo>

namespace dreamrsi {

RecentMenu::RecentMenu(QWidget *parent)
    : QMenu(tr("Open &Recent"), parent)
{
    setObjectName(QStringLiteral("menuRecent"));
}

QStringList RecentMenu::recentFiles()
{
    return UiState::recentFiles();
}

void RecentMenu::addFile(const QString &path)
{
    UiState::addRecentFile(path);
    rebuild();
}

void RecentMenu::addProject(const QString &path)
{
    UiState::addRecentProject(path);
    rebuild();
}

void RecentMenu::rebuild()
{
    clear();
    setToolTipsVisible(true);
    const QStringList projects = UiState::recentProjects();
    const QStringList files = recentFiles();
    int number = 0;
    auto add = [this, &number](const QString &path, auto open) {
        ++number;
        // A run's folder goes by its world's name (a db folder alone says little).
        const QString name = QFileInfo(path).isDir()          ? RunImport::worldName(path)
                             : DemoProject::isDemoCopy(path) ? tr("Demo project")
                                                             : QFileInfo(path).fileName();
        QAction *a = addAction(number < 10 ? QStringLiteral("&%1 %2").arg(number).arg(name) : name);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(QDir::toNativeSeparators(path));
        connect(a, &QAction::triggered, this, open);
    };
    if (!projects.isEmpty())
        addSection(tr("Projects"));
    for (const QString &path : projects)
        add(path, [this, path] { emit projectRequested(path); });
    if (!files.isEmpty())
        addSection(tr("Tree Files and Runs"));
    for (const QString &path : files)
        add(path, [this, path] { emit fileRequested(path); });
    if (!projects.isEmpty() || !files.isEmpty()) {
        addSeparator();
        QAction *clearList = addAction(tr("Clear List"));
        clearList->setObjectName(QStringLiteral("actionClearRecent"));
        connect(clearList, &QAction::triggered, this, [this] {
            UiState::clearRecentFilesAndProjects();
            rebuild();
        });
    }
    setEnabled(!projects.isEmpty() || !files.isEmpty());
}

} // namespace dreamrsi
