#include "recentmenu.h"

#include "demoproject.h"

#include "import/runimport.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace dreamrsi {

namespace {
constexpr int MaxRecentFiles = 10;
const auto RecentFilesKey = "recentFiles";
const auto RecentProjectsKey = "recentProjects";

void prepend(const char *key, const QString &path)
{
    QSettings settings;
    QStringList paths = settings.value(QLatin1String(key)).toStringList();
    paths.removeAll(path);
    paths.prepend(path);
    while (paths.size() > MaxRecentFiles)
        paths.removeLast();
    settings.setValue(QLatin1String(key), paths);
}
} // namespace

RecentMenu::RecentMenu(QWidget *parent)
    : QMenu(tr("Open &Recent"), parent)
{
    setObjectName(QStringLiteral("menuRecent"));
}

QStringList RecentMenu::recentFiles()
{
    return QSettings().value(QLatin1String(RecentFilesKey)).toStringList();
}

void RecentMenu::addFile(const QString &path)
{
    prepend(RecentFilesKey, path);
    rebuild();
}

void RecentMenu::addProject(const QString &path)
{
    prepend(RecentProjectsKey, path);
    rebuild();
}

void RecentMenu::rebuild()
{
    clear();
    setToolTipsVisible(true);
    const QStringList projects = QSettings().value(QLatin1String(RecentProjectsKey)).toStringList();
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
            QSettings settings;
            settings.remove(QLatin1String(RecentFilesKey));
            settings.remove(QLatin1String(RecentProjectsKey));
            rebuild();
        });
    }
    setEnabled(!projects.isEmpty() || !files.isEmpty());
}

} // namespace dreamrsi
