#pragma once

#include "storetypes.h"

#include <memory>
#include <optional>

namespace dreamrsi {

/// Read-only access to a project file through its own SQLite connection.
/// Use one reader per thread (ProjectStore keeps one per pool thread). Every
/// method runs in one read transaction, so what it returns is a consistent
/// snapshot of the last committed state, whatever a writer is doing.
///
/// A reader never migrates or modifies the file. A project whose schema is
/// older than this build's is read as it is: the reader copies it into
/// memory (one consistent snapshot) and upgrades the copy there, so
/// read-only commands work on projects of older builds and leave them as
/// they were; `dreamrsi project upgrade P` (or any command that writes,
/// ProjectWriter::open) upgrades the file itself. A reader of such a copy
/// does not see later writes to the file (outdatedCopy() says when to open
/// it again).
class ProjectReader
{
public:
    ~ProjectReader();
    ProjectReader(const ProjectReader &) = delete;
    ProjectReader &operator=(const ProjectReader &) = delete;

    static StoreResult<std::unique_ptr<ProjectReader>> open(const QString &path);

    QString path() const;
    /// The file's schema version when it is older than this build's and is
    /// read through an in-memory upgrade; 0 when the file is current.
    int upgradedInMemoryFrom() const;
    /// Whether this reader reads an in-memory upgraded copy and the file (or
    /// its write-ahead log) has changed since the copy was taken, as when a
    /// writer upgraded the file: a reader that follows a project opens it
    /// again then. A reader of a current file sees every write and never is.
    bool outdatedCopy() const;

    StoreResult<ProjectInfo> projectInfo();
    StoreResult<QList<IterationInfo>> iterations();
    StoreResult<IterationInfo> iteration(IterationId id);
    /// The iteration's cells in seq order, payload rebuilt.
    StoreResult<QList<Cell>> cells(IterationId id);
    /// Iteration row and cells from one snapshot, not validated as a tree
    /// (a running round's cells may still be arriving).
    StoreResult<IterationData> iterationData(IterationId id);
    /// The iteration row and only the cells with seq > `afterSeq`, from one
    /// snapshot: what a follower of a running round has not seen yet.
    StoreResult<IterationData> iterationDataAfter(IterationId id, qint64 afterSeq);
    /// Iteration and cells from one snapshot, validated as a tree.
    StoreResult<DiscoveryTree> loadIteration(IterationId id);
    StoreResult<QList<PolicyVersion>> policyVersions();
    StoreResult<PolicyVersion> policyVersion(PolicyVersionId id);
    /// Looks a version up by its unique name.
    StoreResult<PolicyVersion> policyVersionByName(const QString &name);
    /// Results of one version, or of all versions when `version` is 0.
    StoreResult<QList<ReplayResultRecord>> replayResults(PolicyVersionId version = 0);
    StoreResult<QList<Approval>> approvals();
    /// The project's replay configuration (the defaults when none was stored).
    StoreResult<StoredReplayConfig> replayConfig();
    /// Steering events of one iteration in the order they were applied, or
    /// every event of the project (approval waits included) when `iteration` is 0.
    StoreResult<QList<SteeringEvent>> steeringEvents(IterationId iteration = 0);
    /// Re-evaluations of one iteration's cells (of every iteration when
    /// `iteration` is 0), in the order they were stored.
    StoreResult<QList<ReevaluationRecord>> reevaluations(IterationId iteration = 0);
    StoreResult<QList<ArtifactRef>> cellArtifacts(IterationId iteration, const QString &cellId);
    /// The artifact's bytes, verified against its hash.
    StoreResult<QByteArray> readArtifact(const QString &hash);
    /// Total number of cells in the project.
    StoreResult<qint64> cellCount();

private:
    ProjectReader();
    /// An iteration's row and its cells (those after `afterSeq` when given), in one read transaction.
    StoreResult<IterationData> readIterationData(IterationId id, std::optional<qint64> afterSeq);
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
