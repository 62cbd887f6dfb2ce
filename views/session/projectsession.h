#pragma once

#include "store/storetypes.h"
#include "replay/replayresult.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace dreamrsi {

class JobTracker;
class ProjectStore;
class Workspace;

/// The open project of the workbench: owns the store, loads a project into
/// the workspace in stages off the GUI thread (every read runs on the
/// store's threads) and reports each stage by signal, and stores what the
/// views create (imported trees, versions, replay results, approvals).
///
/// A project that another live process holds for writing (a round running
/// from the command line, another workbench) opens read-only instead of
/// failing: everything loads, nothing is written (versions, approvals and
/// imports are refused with a message; replay results stay in memory), and
/// the report names the writer so the window can follow its round.
///
/// Which iterations become worlds, what they are called and what a version
/// is worth are the project layer's rules (core/project); the session only
/// applies them. Answers that arrive after another project was opened are
/// dropped (JobTracker scope "project").
class ProjectSession final : public QObject
{
    Q_OBJECT
public:
    /// Loading stages, in order.
    enum class Stage { Opened, Seeded, Worlds, Versions, Results, Approvals };
    Q_ENUM(Stage)

    ProjectSession(Workspace *workspace, JobTracker *jobs, QObject *parent = nullptr);
    ~ProjectSession() override;

    ProjectStore *store() const { return m_store; }
    /// Absolute path of the open project, empty when none.
    QString path() const { return m_path; }
    bool isOpen() const { return !m_path.isEmpty(); }
    /// Open for reading only because `writer()` holds the project.
    bool isReadOnly() const { return isOpen() && m_readOnly; }
    std::optional<WriterInfo> writer() const { return m_writer; }

    /// Opens a project (closing the current one); opened or openFailed, then
    /// the stages, then loaded.
    void open(const QString &path);
    /// Closes the open project (another is shown instead: a served one,
    /// views/session/remoteprojectsession.h); answers still on their way are
    /// dropped. The workspace is left to whoever shows what comes next.
    void close();
    /// Puts stored replay results in `workspace`, whose worlds and versions
    /// are loaded: with `replaceResults`, the values under `stored` (the
    /// project's configuration); always the other valuation's values, the
    /// configuration, the other configurations' results and the stale
    /// versions. The one rule for a project file and a served project alike.
    static void applyResults(Workspace *workspace, const QList<ReplayResultRecord> &records, const StoredReplayConfig &stored,
                             bool replaceResults);
    /// Creates an empty project, seeds the built-in versions, opens it.
    void create(const QString &path);
    /// Stores a parsed tree as a new iteration and adds it as a world.
    void importTree(std::shared_ptr<const DiscoveryTree> tree, const QString &sourcePath);
    /// Stores a version created in the views; the workspace gets its stored id.
    void storeVersion(const PolicyVersion &version);
    /// Stores the episodes of a result computed over the workspace's worlds.
    void storeResult(const QString &versionName, const ReplayResultPtr &result);
    void storeApproval(const Approval &approval);
    /// Replaces the project's replay configuration, then reloads the values
    /// under it; replayConfigStored() names the versions it made stale.
    void setReplayConfig(const ReplayConfig &config);

signals:
    void opened(const QString &path, const dreamrsi::OpenReport &report);
    void openFailed(const QString &path, const QString &message);
    void stageReached(dreamrsi::ProjectSession::Stage stage);
    /// A part that could not be read; the other stages still load.
    void stageFailed(dreamrsi::ProjectSession::Stage stage, const QString &message);
    void loaded(const QString &path);
    void treeImported(const QString &sourcePath, int worldRow);
    void importFailed(const QString &sourcePath, const QString &message);
    void versionStored(const QString &name);
    void resultsStored(const QString &versionName);
    void approvalStored(const QString &versionName);
    /// The replay configuration was stored and the values reloaded under it;
    /// `staleVersions` have stored values only under other configurations
    /// (or not for every world and β), so they need a replay.
    void replayConfigStored(const QStringList &staleVersions);
    /// A write that failed (the message names what).
    void storeFailed(const QString &what, const QString &message);

private:
    void openWith(const QString &path, bool create);
    void finishOpen(const QString &path, const OpenReport &report);
    QString readOnlyMessage() const;
    void seed();
    void loadWorlds();
    void loadVersions();
    void loadResults();
    void loadApprovals();
    /// Reads the replay configuration and the results, puts the others'
    /// results and the stale versions in the workspace and, with
    /// `replaceResults`, replaces its results by those under the
    /// configuration; then calls `then`.
    void reloadResults(bool replaceResults, std::function<void()> then);

    Workspace *m_workspace;
    JobTracker *m_jobs;
    ProjectStore *m_store;
    QString m_path;
    bool m_readOnly = false;
    std::optional<WriterInfo> m_writer;
};

} // namespace dreamrsi
