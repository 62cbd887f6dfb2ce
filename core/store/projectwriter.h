#pragma once

#include "storetypes.h"

#include <memory>

namespace dreamrsi {

class SqliteConnection;
class ArtifactStore;

/// Synchronous write access to one project file. Exactly one ProjectWriter
/// per project may exist at a time across all processes (a lock file beside
/// the database, `<db>.lock`, enforces it; a lock left by a dead process is
/// taken over). It must be used from one thread only: ProjectStore runs it on
/// its writer thread, the CLI on the main thread.
///
/// How a cell is stored: the tree fields of docs/tree-format.md get their own
/// columns; so do the conventional payload keys `proposal`, `program`,
/// `stdout`, `stderr` (strings), `metrics` (object), `agent` (object with
/// `name`, `model`, `tokens_in`, `tokens_out`, `cost`) and `timing` (object
/// with `agent_s`, `eval_s`, `wall_s`), from which queryable columns are
/// derived. Everything else in the payload is kept as JSON. loadIteration()
/// rebuilds exactly the cell that was written, payload included.
class ProjectWriter
{
public:
    ~ProjectWriter();
    ProjectWriter(const ProjectWriter &) = delete;
    ProjectWriter &operator=(const ProjectWriter &) = delete;

    /// Creates `path` (must not exist; its folder must) with the current schema.
    static StoreResult<std::unique_ptr<ProjectWriter>> create(const QString &path, const ProjectInfo &info,
                                                              OpenReport *report = nullptr);
    /// Opens an existing project, migrating it to the current schema, and
    /// marks every Running iteration Interrupted (reported in *report).
    static StoreResult<std::unique_ptr<ProjectWriter>> open(const QString &path, OpenReport *report = nullptr);

    QString path() const;
    QString artifactDir() const;

    StoreResult<Done> updateProject(const ProjectInfo &info);
    /// Starts an online round. The project's first round (while the replay
    /// configuration is still the defaults, never set by anyone) also sets
    /// the configuration's W to the round's, in the same transaction.
    StoreResult<IterationId> beginIteration(const IterationInfo &info);
    StoreResult<Done> appendCell(IterationId iteration, const Cell &cell, const QList<ArtifactRef> &artifacts = {});
    StoreResult<Done> finishIteration(IterationId iteration, IterationStatus status);
    /// With `limits`, the row takes the resumed round's limits.
    StoreResult<QList<Cell>> resumeIteration(IterationId iteration, const std::optional<IterationLimits> &limits = std::nullopt);
    StoreResult<IterationId> importTree(const DiscoveryTree &tree, const QString &source = {});
    /// Imports many trees in one transaction: all of them or none.
    StoreResult<QList<IterationId>> importTrees(const QList<DiscoveryTree> &trees, const QStringList &sources = {});
    StoreResult<ArtifactRef> putArtifact(const QByteArray &content, const QString &name);
    StoreResult<PolicyVersionId> addPolicyVersion(const PolicyVersion &version);
    StoreResult<Done> storeReplayResults(const QList<ReplayResultRecord> &results);
    StoreResult<qint64> addApproval(const Approval &approval);
    /// Replaces the project's replay configuration (origin User): W ≥ 1, λ ≥ 0
    /// and finite, a non-empty β grid in [0, 1], K ≥ 1 when given.
    StoreResult<Done> setReplayConfig(const ReplayConfig &config);
    /// Records a steering event. An event whose requestId is already stored
    /// is not stored again: the earlier event's id is returned (a request
    /// applied before a crash and seen again on resume counts once).
    StoreResult<qint64> addSteeringEvent(const SteeringEvent &event);
    /// Records one re-evaluation of a stored cell (its iteration and cell
    /// id must name a cell); the cell itself is not touched. Its row id.
    StoreResult<qint64> addReevaluation(const ReevaluationRecord &record);

    /// PRAGMA integrity_check; success when it reports "ok".
    StoreResult<Done> integrityCheck();

private:
    ProjectWriter();
    static StoreResult<std::unique_ptr<ProjectWriter>> openImpl(const QString &path, bool create,
                                                                const ProjectInfo &info, OpenReport *report);
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace dreamrsi
