#pragma once

#include "model/discoverytree.h"
#include "replay/replayresult.h"
#include "base/result.h"
#include "project/policyresolution.h"
#include "project/projectscores.h"
#include "project/reevaluationstats.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

namespace dreamrsi {

/// One world the workbench has open: a tree file, or an iteration of the open project.
struct WorldEntry
{
    QString name;              ///< unique display name; replay results refer to worlds by it
    QString path;              ///< tree file, empty for a project iteration
    IterationId iteration = 0; ///< project iteration, 0 for a loose file
    std::shared_ptr<const DiscoveryTree> tree;
};

/// What the views share: the open worlds, the policy versions and the replay
/// results of each version. Lives on the GUI thread; every change is
/// announced by a signal so each page can refresh itself.
///
/// Row-level signals say exactly what changed (a world or version added at a
/// row, one changed, one removed, a cell appended to a world) so models insert
/// rows instead of resetting; each is followed by the coarse
/// worldsChanged()/versionsChanged() for pages that simply redraw.
class Workspace final : public QObject
{
    Q_OBJECT
public:
    explicit Workspace(QObject *parent = nullptr);

    const QList<WorldEntry> &worlds() const { return m_worlds; }
    /// Adds a world, or replaces the one with the same path / iteration; returns its row.
    int addWorld(WorldEntry world);
    void removeWorld(int row);
    /// Appends one cell to world `row` (a live round growing): the world gets a
    /// new tree with the cell last; cellAppended(row, index) follows. Fails,
    /// changing nothing, when the cell does not fit the tree (duplicate id,
    /// attempt gap, …).
    Result<Done> appendCell(int row, const Cell &cell);
    int indexOfWorld(const QString &name) const;
    void clearWorlds();

    const QList<PolicyVersion> &versions() const { return m_versions; }
    /// Adds or replaces (by name) a version. A version without a project id
    /// gets a session-local id above LocalIdBase, so parents resolve by id.
    int addVersion(const PolicyVersion &version);
    static constexpr PolicyVersionId LocalIdBase = PolicyVersionId(1) << 40;
    static bool isLocalId(PolicyVersionId id) { return id >= LocalIdBase; }
    int indexOfVersion(const QString &name) const;
    void clearVersions();
    /// A name for a new version derived from `base` that no version uses yet.
    QString freshVersionName(const QString &base) const;

    /// Latest replay result of a version over the open worlds, or null.
    ReplayResultPtr result(const QString &versionName) const { return m_results.value(versionName); }
    /// How many of the open worlds `result` has a sweep for (under the
    /// imagined valuation: a sweep for each of the world's completions).
    qsizetype worldsReplayed(const ReplayResult &result) const;
    void setResult(const QString &versionName, ReplayResultPtr result);
    void clearResults();
    /// A version's result over the open worlds under the project's
    /// configuration with the other valuation (revealed when the project's is
    /// imagined, imagined when it is revealed), rebuilt from stored records;
    /// null when none. The dialogs show it next to the project's value.
    ReplayResultPtr otherValuationResult(const QString &versionName) const { return m_otherValuation.value(versionName); }
    /// Replaces every such result (by version name).
    void setOtherValuationResults(QHash<QString, ReplayResultPtr> results);

    /// The open project's replay configuration (W, λ, β grid, K); nothing
    /// while no project is open. The results above are under it.
    const std::optional<StoredReplayConfig> &replayConfig() const { return m_replayConfig; }
    void setReplayConfig(std::optional<StoredReplayConfig> config);
    /// Stored results computed under other configurations than the project's:
    /// kept and shown with their own configuration, never compared with the
    /// results above (ProjectScores::otherResults).
    const QList<ConfiguredResult> &otherResults() const { return m_otherResults; }
    void setOtherResults(QList<ConfiguredResult> results);
    /// Versions whose stored values are stale under the project's configuration.
    const QList<PolicyVersionId> &staleVersions() const { return m_stale; }
    void setStaleVersions(QList<PolicyVersionId> versions);

    /// Approvals for redeployment, oldest first. The newest one names the
    /// version the next online round deploys.
    const QList<Approval> &approvals() const { return m_approvals; }
    void setApprovals(QList<Approval> approvals);
    void addApproval(const Approval &approval);
    /// The re-evaluated cells of a project iteration
    /// (docs/online.md#re-evaluating-the-best), in the order of its cells;
    /// empty for none or a loose tree file. Frontiers, the anytime curves and
    /// the Cells tab show them.
    QList<ReevaluationStats> reevaluations(IterationId iteration) const { return m_reevaluations.value(iteration); }
    /// Replaces an iteration's; reevaluationsChanged(iteration) follows.
    void setReevaluations(IterationId iteration, QList<ReevaluationStats> stats);

    /// The approved version the next round deploys (the newest approval), or 0.
    /// The version the newest approval deploys (PolicyResolution::newestApproval); 0 when none.
    PolicyVersionId deployedVersion() const
    {
        const Approval *newest = PolicyResolution::newestApproval(m_approvals);
        return newest ? newest->version : 0;
    }
    /// The newest approval of `version`, or nothing.
    std::optional<Approval> latestApprovalOf(PolicyVersionId version) const;

signals:
    void worldAdded(int row);
    /// World `row` has a new tree or entry (same name and row).
    void worldChanged(int row);
    void worldRemoved(int row);
    /// World `row` grew by one cell, at `cellIndex` (the last one).
    void cellAppended(int row, int cellIndex);
    /// Every world went away at once.
    void worldsCleared();
    void versionAdded(int row);
    void versionChanged(int row);
    void versionsCleared();
    void worldsChanged();
    void versionsChanged();
    void resultsChanged(const QString &versionName);
    void approvalsChanged();
    void reevaluationsChanged(qint64 iteration);
    /// The project's replay configuration, the other configurations' results
    /// or the stale versions changed.
    void replayConfigChanged();

private:
    QList<WorldEntry> m_worlds;
    QList<PolicyVersion> m_versions;
    QHash<QString, ReplayResultPtr> m_results;
    QHash<QString, ReplayResultPtr> m_otherValuation;
    QList<Approval> m_approvals;
    std::optional<StoredReplayConfig> m_replayConfig;
    QHash<IterationId, QList<ReevaluationStats>> m_reevaluations;
    QList<ConfiguredResult> m_otherResults;
    QList<PolicyVersionId> m_stale;
    PolicyVersionId m_nextLocalId = LocalIdBase;
};

} // namespace dreamrsi
