#include "projectsnapshot.h"

#include "projectscores.h"
#include "projectworlds.h"

#include "store/projectreader.h"

namespace dreamrsi {

const PolicyVersion *ProjectSnapshot::versionNamed(const QString &name) const
{
    for (const PolicyVersion &v : versions) {
        if (v.name == name)
            return &v;
    }
    return nullptr;
}

ApprovalInputs ProjectSnapshot::approvalInputs() const
{
    ApprovalInputs in;
    in.worlds = worlds;
    in.deployed = deployedVersion();
    in.config = config.config;
    // The other valuation's values beside the configuration's, as the
    // approval dialog shows them: `dreamrsi approve` records the same evidence.
    in.otherConfig = ApprovalRules::otherValuation(config.config);
    for (const PolicyVersion &v : versions)
        in.versions.append({v, true, results.value(v.id), otherValuationResults.value(v.id)});
    return in;
}

Result<ProjectSnapshot> ProjectSnapshot::load(ProjectReader &reader)
{
    ProjectSnapshot s;
    Result<QList<ProjectWorld>> worlds = ProjectWorlds::load(reader, &s.skippedIterations);
    if (!worlds.ok())
        return worlds.failureAs<ProjectSnapshot>();
    s.worlds = std::move(*worlds.value);
    Result<QList<PolicyVersion>> versions = reader.policyVersions();
    if (!versions.ok())
        return versions.failureAs<ProjectSnapshot>();
    s.versions = std::move(*versions.value);
    Result<StoredReplayConfig> config = reader.replayConfig();
    if (!config.ok())
        return config.failureAs<ProjectSnapshot>();
    s.config = *config.value;
    const Result<QList<ReplayResultRecord>> records = reader.replayResults();
    if (!records.ok())
        return records.failureAs<ProjectSnapshot>();
    s.results = ProjectScores::resultsFromRecords(*records.value, s.worlds, s.config.config);
    s.otherValuationResults =
        ProjectScores::resultsFromRecords(*records.value, s.worlds, ApprovalRules::otherValuation(s.config.config));
    s.others = ProjectScores::otherResults(*records.value, s.worlds, s.config.config);
    s.stale = ProjectScores::staleVersions(*records.value, s.worlds, s.config.config);
    Result<QList<Approval>> approvals = reader.approvals();
    if (!approvals.ok())
        return approvals.failureAs<ProjectSnapshot>();
    s.approvals = std::move(*approvals.value);
    return Result<ProjectSnapshot>::success(std::move(s));
}

} // namespace dreamrsi
