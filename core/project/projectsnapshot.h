#pragma once

#include "approvalcomparison.h"
#include "policyresolution.h"
#include "projectscores.h"
#include "projectworld.h"

#include "base/result.h"
#include "replay/replayresult.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>

namespace dreamrsi {

class ProjectReader;

/// Everything the offline half knows of a project at one moment: its replay
/// worlds (ProjectWorlds), its policy versions, its replay configuration,
/// each version's result over those worlds under that configuration
/// (ProjectScores), the results kept under other configurations and the
/// approvals. The GUI builds the same
/// from the same functions stage by stage (views/projectsession); the CLI
/// loads it at once.
struct ProjectSnapshot
{
    QList<ProjectWorld> worlds;
    int skippedIterations = 0; ///< running or interrupted, not replay worlds
    QList<PolicyVersion> versions;
    StoredReplayConfig config;                      ///< the project's replay configuration
    QHash<PolicyVersionId, ReplayResultPtr> results; ///< under `config` only
    /// Each version's result under the configuration with the valuation
    /// switched (ApprovalRules::otherValuation): the approval's second number.
    QHash<PolicyVersionId, ReplayResultPtr> otherValuationResults;
    QList<ConfiguredResult> others;                 ///< under other configurations, labelled with theirs
    QList<PolicyVersionId> stale;                   ///< versions whose stored values do not cover `config`
    QList<Approval> approvals; ///< oldest first; the newest names the deployed version

    /// The version the newest approval deploys (PolicyResolution::newestApproval); 0 when none.
    PolicyVersionId deployedVersion() const
    {
        const Approval *newest = PolicyResolution::newestApproval(approvals);
        return newest ? newest->version : 0;
    }
    const PolicyVersion *versionNamed(const QString &name) const;
    /// What approval is judged on (every version is stored).
    ApprovalInputs approvalInputs() const;

    static Result<ProjectSnapshot> load(ProjectReader &reader);
};

} // namespace dreamrsi
