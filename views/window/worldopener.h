#pragma once

#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>

class QWidget;

namespace dreamrsi {

class JobTracker;
class ProjectPage;
class ProjectSession;
class WorldReader;

/// How tree files and runs become worlds in the window: File ▸ Open Tree,
/// Open Run Folder, Open Recent, drag-and-drop and the command line open
/// them beside the project's worlds (read off the GUI thread by the
/// session's WorldReader, shown on the ProjectPage); Import Trees into
/// Project stores them in the open project (ProjectSession::importTree). A
/// run of OpenEvolve or ShinkaEvolve opens as the tree it maps onto
/// (core/import, docs/tree-format.md#imported-runs). What is asked and said
/// is this class's; the reading is session/worldreader's.
class WorldOpener final : public QObject
{
    Q_OBJECT
public:
    /// `window` parents the dialogs.
    WorldOpener(ProjectPage *page, ProjectSession *session, JobTracker *jobs, QWidget *window);

    /// MainWindow::openFiles, openRun, importTrees.
    void openFiles(const QStringList &paths);
    void openRun(const QString &path, std::optional<QString> metric = std::nullopt);
    void importTrees(const QStringList &paths);
    using MetricChooser = std::function<std::optional<QString>(const QString &run, const QStringList &metrics)>;
    void setMetricChooser(MetricChooser chooser) { m_metricChooser = std::move(chooser); }

signals:
    /// A tree file or a run is shown as a world (recent files, the Live Round dock).
    void worldOpened(const QString &path);
    void treeOpened(const QString &path);
    void openFailed(const QString &path, const QString &message);
    void statusMessage(const QString &text, int timeoutMs);

private:
    ProjectPage *m_page;
    ProjectSession *m_session;
    WorldReader *m_reader;
    QWidget *m_window;
    MetricChooser m_metricChooser;
};

} // namespace dreamrsi
