#pragma once

#include "jobtracker.h"
#include "remote/remoteclient.h"
#include "remote/remotejson.h"
#include "store/storetypes.h"

#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class QTemporaryDir;

namespace dreamrsi {

class DiscoveryTree;
class JobTracker;
class RemoteConnection;
class RemoteFollower;
class Workspace;

/// A project served by `dreamrsi serve` (docs/remote.md), shown in the
/// window as a project followed read-only is shown: loads it into the
/// workspace from the endpoints — its finished iterations as worlds (each
/// tree from /iterations/N/tree, parsed off the GUI thread, named by the
/// project layer's rule, ProjectWorlds), its policy versions, approvals and
/// replay configuration from /project, the values from /replay-results
/// (ProjectSession::applyResults, the rule a project file's values follow)
/// — and follows its rounds (RemoteFollower). Nothing here blocks: every
/// request is answered later; answers for a project no longer open are
/// dropped (JobTracker scope "remote").
///
/// With a steering token, approvals go to POST /api/v1/approve; the
/// follower's steering to /api/v1/steer (RoundController). Artifacts are
/// fetched by hash once and kept for the session (artifact()).
///
/// For what reads a project file (the Progress and Compare tabs), the
/// served iterations are copied into a temporary project file
/// (copyIterations(): RemoteClient::copyIterations off the GUI thread,
/// into a folder the session owns and removes on close).
class RemoteProjectSession final : public QObject
{
    Q_OBJECT
public:
    RemoteProjectSession(Workspace *workspace, JobTracker *jobs, QObject *parent = nullptr);
    ~RemoteProjectSession() override;

    /// Connects to `project` (closing the one open): opened or openFailed,
    /// then loaded once every part has arrived.
    void open(const RemoteProject &project, const QByteArray &steeringToken = {});
    /// Disconnects; the workspace is left as it is.
    void close();
    bool isOpen() const { return m_connection != nullptr; }
    /// The served project's URL ("http://HOST:PORT/"), empty when none.
    QString url() const;
    /// "HOST:PORT", empty when none.
    QString host() const;
    /// The project's name as the server tells it.
    const QString &name() const { return m_summary.name; }
    const RemoteProjectSummary &summary() const { return m_summary; }
    RemoteConnection *connection() const { return m_connection; }
    /// Its rounds, as RoundEvents (null when none is open).
    RemoteFollower *follower() const { return m_follower; }
    bool canSteer() const;

    /// Reads the project again (after a round ended: its iteration is a
    /// world now; a dream's new versions and values): loaded follows.
    void reload();
    /// Approves version `name` (or declines, empty) through POST
    /// /api/v1/approve as `who` with `note`: approvalStored or approvalFailed.
    void approve(const QString &name, const QString &who, const QString &note);
    /// An artifact by its hash: from the session's cache, else fetched once
    /// (GET /api/v1/artifacts/HASH) and kept. `answer` gets the bytes or why not.
    void artifact(const QString &hash, std::function<void(Result<QByteArray>)> answer);
    /// How many artifacts were fetched over the network (the rest came from the cache).
    int artifactFetches() const { return m_artifactFetches; }
    /// The files a cell of iteration `iteration` refers to (name, hash,
    /// size; GET /api/v1/iterations/N/cells/ID/artifacts), fetched once
    /// per cell and kept; `answer` gets them or why not.
    void cellArtifacts(IterationId iteration, const QString &cellId, std::function<void(Result<QList<ArtifactRef>>)> answer);
    /// Copies the served iterations into a new temporary project file off
    /// the GUI thread (RemoteClient::copyIterations, docs/remote.md):
    /// copyStarted, then copyReady or copyFailed. Asked again while one is
    /// made, one more follows it. The copies go when the session closes.
    void copyIterations();
    /// The newest copy made, empty when none.
    const QString &copyPath() const { return m_copyPath; }

    /// The iteration whose world `tree` is, when this session loaded it; 0 otherwise.
    IterationId iterationOf(const DiscoveryTree *tree) const;
    /// The open session that loaded `tree` as one of its worlds, if any:
    /// how the inspector (views/tree) finds where a shown cell's files are
    /// served without the window in between.
    static RemoteProjectSession *servingTree(const DiscoveryTree *tree);

signals:
    void opened(const QString &host, const QString &name);
    void openFailed(const QString &host, const QString &message);
    /// Every part arrived (or failed: stageFailed said which).
    void loaded(const QString &host);
    void stageFailed(const QString &message);
    void approvalStored(const QString &name);
    void approvalFailed(const QString &message);
    void copyStarted();
    void copyReady(const QString &path);
    void copyFailed(const QString &message);

private:
    void load(bool first);
    void loadWorlds(bool first, const QList<IterationInfo> &iterations);
    void loadResults();

    Workspace *m_workspace;
    QPointer<JobTracker> m_jobs; ///< the window's; gone first when the window closes
    RemoteConnection *m_connection = nullptr;
    RemoteFollower *m_follower = nullptr;
    RemoteProjectSummary m_summary;
    QHash<QString, QByteArray> m_artifacts;
    QHash<QString, QList<std::function<void(Result<QByteArray>)>>> m_artifactWaits;
    int m_artifactFetches = 0;
    QHash<QString, QList<ArtifactRef>> m_cellArtifacts; ///< "iteration:cell"
    QHash<QString, QList<std::function<void(Result<QList<ArtifactRef>>)>>> m_cellArtifactWaits;
    bool m_loading = false;
    bool m_reloadAgain = false;
    /// The copies' folder; a copy being made holds it too, so it goes when both let go.
    std::shared_ptr<QTemporaryDir> m_copyDir;
    QString m_copyPath;
    int m_copies = 0;          ///< copies begun in m_copyDir (each in its own subfolder)
    bool m_copying = false;
    bool m_copyAgain = false;
};

} // namespace dreamrsi
