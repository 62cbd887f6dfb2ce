#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// What the workbench remembers between sessions besides the preferences
/// (Preferences): the Open Recent lists, the last folders of the file
/// dialogs, the window's layout and what some dialogs were last given.
/// The one place that reads and writes these QSettings keys (the views call
/// these accessors, docs/architecture.md#decided-once); the keys are the
/// ones the views used before, so what a person's workbench kept still loads.
class UiState final
{
public:
    /// File ▸ Open Recent: projects, tree files and runs, servers (URLs
    /// only), the latest first, at most MaxRecent each.
    static constexpr int MaxRecent = 10;
    static QStringList recentFiles();
    static QStringList recentProjects();
    static QStringList recentServers();
    static void addRecentFile(const QString &path);
    static void addRecentProject(const QString &path);
    static void addRecentServer(const QString &url);
    /// Open Recent's Clear List: projects and files; the servers apart.
    static void clearRecentFilesAndProjects();
    static void clearRecentServers();

    /// Where Open Tree… and Open Run Folder… start.
    static QString lastDir();
    static void setLastDir(const QString &dir);
    /// The folder of the last project opened or made (MainWindow::newProjectFolder).
    static QString lastProjectDir();
    static void setLastProjectDir(const QString &dir);

    /// The main window's geometry and dock layout (QMainWindow's saveGeometry, saveState).
    static QByteArray windowGeometry();
    static QByteArray windowState();
    static void setWindowLayout(const QByteArray &geometry, const QByteArray &state);

    /// File ▸ Export Figure…: the last folder, format, size, resolution, whether the data go along.
    struct ExportForm
    {
        std::optional<QString> dir; ///< none: never exported
        QString suffix = QStringLiteral("pdf");
        double widthMm = 170.0;
        double heightMm = 100.0;
        int dpi = 300;
        bool data = false;
    };
    static ExportForm exportForm();
    static void setExportForm(const ExportForm &form);

    /// The Compare tab's set for one project ("" for none): its sources,
    /// axis and metric, as the page writes them (kind by number,
    /// iterations as text).
    struct CompareSet
    {
        struct Source
        {
            int kind = 0;
            QString path;
            QString label;
            QString iterations;
        };
        QList<Source> sources;
        std::optional<QString> axis; ///< none: never chosen
        QString metric;
    };
    static CompareSet compareSet(const QString &project);
    static void setCompareSet(const QString &project, const CompareSet &set);

    /// Simulate the Loop…'s form for one project; none before it was run there.
    struct SimulationForm
    {
        bool fromFolder = false;
        QString folder;
        int iterations = 5;
        int versions = 4;
        std::optional<int> workers; ///< none: the replay configuration's default
        int rounds = 0;
        bool fixBeta = false;
        double beta = 0.5;
        int seed = 0;
        int repeats = 20;
        QString policy;
        int arms = 0;
        bool guard = false;
        bool floor = true; ///< the dreams' floor check
    };
    static std::optional<SimulationForm> simulationForm(const QString &project);
    static void setSimulationForm(const QString &project, const SimulationForm &form);

    /// Launch Round's form, but for the agent time limit and the cluster,
    /// which are preferences (AppSettings::agentTimeLimitMin, slurm()).
    struct LaunchRoundForm
    {
        std::optional<QString> task; ///< none: never launched
        QString agent = QStringLiteral("builtin");
        QString model;
        QString baseUrl;
        QString command;
        QString allowEnv; ///< the command agent's environment: comma-separated names
        std::optional<int> workers; ///< none: RoundConfig's default
        int rounds = 0;
        QString policy;
        bool policyBeta = true;
        double beta = 0.5;
        int seed = 0;
        int maxCalls = 0;
        int maxTokens = 0;
        double maxUsd = 0.0;
        QString backend = QStringLiteral("local");
        /// The cluster fields an older version kept in this form (partition,
        /// account, qos, sbatchArgs, sharedDir): read, never written (setLaunchRoundForm removes them).
        QList<std::pair<QString, QString>> oldCluster;
    };
    static LaunchRoundForm launchRoundForm();
    static void setLaunchRoundForm(const LaunchRoundForm &form);
};

} // namespace dreamrsi
