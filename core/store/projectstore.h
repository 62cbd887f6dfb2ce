#pragma once

#include "storetypes.h"

#include <QFuture>
#include <QObject>

#include <memory>

namespace dreamrsi {

class ProjectWriter;
class ProjectReader;

/// The history store as a service: one project file (SQLite, WAL) opened by
/// one writer that lives on its own thread, plus read connections on a small
/// private thread pool. Every method returns at once with a QFuture; the
/// caller (typically the GUI thread) never waits on SQLite. Continue with
/// `future.then(context, …)` to get the result back on the caller's thread.
///
/// Promises:
/// - Writes are executed one at a time, in the order they were called.
/// - appendCell() is atomic: after a crash the cell is either complete (all
///   columns, tags, artifacts links, the iteration's cell count and best
///   score) or absent. A cell whose future reported success is durable
///   against process death (WAL, synchronous=NORMAL: a power loss may lose
///   the last transactions but never corrupts the file).
/// - State changes of a round (begin, finish, interrupt, resume) are single
///   transactions; importTree() stores a whole tree or nothing.
/// - Reads run in one read transaction each, so a returned tree or list is a
///   consistent snapshot even while the writer streams cells.
/// - At most one process writes a project: open() fails with a message
///   naming the holder when another workbench has it open.
///
/// Signals are emitted from the writer thread after the corresponding
/// transaction committed; connect with an auto or queued connection.
class ProjectStore : public QObject
{
    Q_OBJECT
public:
    explicit ProjectStore(QObject *parent = nullptr);
    /// Finishes queued writes, then closes the connections and stops the thread.
    ~ProjectStore() override;

    /// Creates a new project file at `path` (which must not exist) with its
    /// artifact folder, and opens it for writing.
    QFuture<StoreResult<OpenReport>> create(const QString &path, const ProjectInfo &info);
    /// Opens an existing project for writing: migrates an older schema,
    /// refuses a newer one, marks rounds left running as interrupted.
    QFuture<StoreResult<OpenReport>> open(const QString &path);
    /// Opens an existing project for reading only, for as long as another
    /// process writes it: no lock is taken, nothing is migrated or marked
    /// interrupted, every write fails with "no project is open for writing".
    /// The report says readOnly and names the live writer, when there is one
    /// (ProjectLock::liveWriter). Reads see what the writer commits.
    QFuture<StoreResult<OpenReport>> openReadOnly(const QString &path);
    /// Closes the project (no-op when none is open). Pending writes finish first.
    QFuture<StoreResult<Done>> close();

    /// Path of the open project, empty when none (valid after create/open resolved).
    QString path() const;
    /// True while the project is open through openReadOnly().
    bool isReadOnly() const;

    // ---- reads (pool threads, snapshot each) ----
    QFuture<StoreResult<ProjectInfo>> projectInfo();
    QFuture<StoreResult<QList<IterationInfo>>> iterations();
    /// The iteration's row and cells from one snapshot (also for running rounds).
    QFuture<StoreResult<IterationData>> iterationData(IterationId id);
    /// The iteration's row and its cells with seq > `afterSeq`, one snapshot.
    QFuture<StoreResult<IterationData>> iterationDataAfter(IterationId id, qint64 afterSeq);
    /// The iteration as a validated tree, cells in seq order, payload included.
    QFuture<StoreResult<DiscoveryTree>> loadIteration(IterationId id);
    QFuture<StoreResult<QList<PolicyVersion>>> policyVersions();
    /// Results of one version (or of every version when `version` is 0).
    QFuture<StoreResult<QList<ReplayResultRecord>>> replayResults(PolicyVersionId version = 0);
    QFuture<StoreResult<QList<Approval>>> approvals();
    /// The project's one replay configuration (ProjectReader::replayConfig).
    QFuture<StoreResult<StoredReplayConfig>> replayConfig();
    /// Steering events of one iteration, or of the whole project when `iteration` is 0.
    QFuture<StoreResult<QList<SteeringEvent>>> steeringEvents(IterationId iteration = 0);
    /// Re-evaluations of one iteration's cells, or of every iteration when `iteration` is 0.
    QFuture<StoreResult<QList<ReevaluationRecord>>> reevaluations(IterationId iteration = 0);
    QFuture<StoreResult<QList<ArtifactRef>>> cellArtifacts(IterationId iteration, const QString &cellId);
    QFuture<StoreResult<QByteArray>> readArtifact(const QString &hash);

    // ---- writes (writer thread, in call order) ----
    QFuture<StoreResult<Done>> updateProject(const ProjectInfo &info);
    /// Starts an online round (status Running). Returns its id.
    QFuture<StoreResult<IterationId>> beginIteration(const IterationInfo &info);
    /// Stores one finished attempt of a round, atomically, with links to
    /// artifacts already stored by putArtifact().
    QFuture<StoreResult<Done>> appendCell(IterationId iteration, const Cell &cell,
                                          const QList<ArtifactRef> &artifacts = {});
    /// Marks a round Finished, Stopped (the user stopped it) or Interrupted.
    QFuture<StoreResult<Done>> finishIteration(IterationId iteration, IterationStatus status = IterationStatus::Finished);
    /// Sets an Interrupted or Stopped round back to Running so the loop can continue it;
    /// returns the cells it already has, in seq order. With `limits`, the
    /// row records the limits the resumed round runs under.
    QFuture<StoreResult<QList<Cell>>> resumeIteration(IterationId iteration,
                                                      const std::optional<IterationLimits> &limits = std::nullopt);
    /// Stores a validated tree as a new finished iteration, all or nothing.
    QFuture<StoreResult<IterationId>> importTree(const DiscoveryTree &tree, const QString &source = {});
    /// Copies `content` into the artifact folder (content-addressed, written
    /// atomically) and records it.
    QFuture<StoreResult<ArtifactRef>> putArtifact(const QByteArray &content, const QString &name);
    /// Adds a policy version; the name must be unique in the project.
    QFuture<StoreResult<PolicyVersionId>> addPolicyVersion(const PolicyVersion &version);
    /// Stores replay results in one transaction, replacing results with equal keys.
    QFuture<StoreResult<Done>> storeReplayResults(const QList<ReplayResultRecord> &results);
    QFuture<StoreResult<qint64>> addApproval(const Approval &approval);
    /// Replaces the project's replay configuration (ProjectWriter::setReplayConfig).
    QFuture<StoreResult<Done>> setReplayConfig(const ReplayConfig &config);
    /// Records a steering event (ProjectWriter::addSteeringEvent); emits steeringChanged.
    QFuture<StoreResult<qint64>> addSteeringEvent(const SteeringEvent &event);
    /// Records a re-evaluation of a stored cell (ProjectWriter::addReevaluation); emits reevaluationsChanged.
    QFuture<StoreResult<qint64>> addReevaluation(const ReevaluationRecord &record);

signals:
    void cellAppended(qint64 iteration, const QString &cellId);
    void iterationChanged(qint64 iteration);
    void policyVersionsChanged();
    void replayResultsChanged(qint64 version);
    void approvalsChanged();
    /// The replay configuration was set (by the user, or by the first round).
    void replayConfigChanged();
    /// A steering event was stored (iteration 0: outside a round).
    void steeringChanged(qint64 iteration);
    /// A re-evaluation of one of the iteration's cells was stored.
    void reevaluationsChanged(qint64 iteration);

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
