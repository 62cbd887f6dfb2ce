#pragma once

#include "projectworld.h"

#include "replay/replayresult.h"
#include "store/storetypes.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace dreamrsi {

/// What approval of a version for redeployment is judged on: the worlds it
/// must cover, every version with its latest result, and which version the
/// next round would run now.
struct ApprovalInputs
{
    struct Version
    {
        PolicyVersion version;
        bool stored = false;    ///< stored in a project (approvals refer to stored ids)
        ReplayResultPtr result; ///< its latest result over `worlds`, or null
        /// Its result under `otherConfig` (the other valuation), or null.
        ReplayResultPtr otherResult;
    };
    QList<ProjectWorld> worlds;
    QList<Version> versions;
    PolicyVersionId deployed = 0; ///< the newest approval's version, 0 when none
    /// The project's replay configuration, which every result above is under
    /// (ProjectScores::resultsFromRecords); none for loose tree files.
    std::optional<ReplayConfig> config;
    /// `config` with the valuation switched (ApprovalRules::otherValuation):
    /// the comparison then also gives both versions' values under it, from
    /// Version::otherResult. None: only the configuration's own values.
    std::optional<ReplayConfig> otherConfig;
};

/// Why a version cannot be approved (the first that applies, in this order).
enum class ApprovalBlocker {
    None,
    UnknownVersion,     ///< no version has that name
    NotStored,          ///< the version is not stored in a project
    NoWorlds,           ///< there is no world to judge it by
    NotReplayed,        ///< no result
    PolicyError,        ///< its replay ended in a policy error (detail: the error)
    IncompleteCoverage, ///< the result lacks a world (detail: the world's name)
    Unscorable,         ///< no world could score it (every world has S = 0)
};

/// Things to weigh that do not block.
enum class ApprovalWarning {
    DifferentParameters, ///< candidate and baseline replayed with different W, λ or β grid
    LowerValue,          ///< the candidate's value is below the baseline's
};

/// The candidate against a baseline (the deployed version, else the best
/// other version with a value), world by world, and the evidence record
/// stored with an approval. Built by compareForApproval(); the GUI dialog
/// shows it and `dreamrsi approve` prints it, so both store the same record.
struct ApprovalComparison
{
    QString candidate;
    PolicyVersionId candidateId = 0;
    QString baseline;     ///< empty when no other version has a result
    QString baselineRole; ///< "deployed" or "best other version" (a code, stored as is)
    ApprovalBlocker blocker = ApprovalBlocker::None;
    QString blockerDetail; ///< the policy error, or the world not covered
    QList<ApprovalWarning> warnings;
    std::optional<double> candidateValue;
    std::optional<double> baselineValue;
    /// The values under the other valuation (ApprovalInputs::otherConfig):
    /// imagined when the configuration's is revealed and the other way round.
    std::optional<ReplayConfig> otherConfig;
    std::optional<double> candidateOtherValue;
    std::optional<double> baselineOtherValue;
    /// Stored verbatim with the approval (Approval::evidence): candidate, ids,
    /// baseline and role, replay parameters, values, a row per world and the
    /// warnings as codes ("different_parameters", "lower_value"); with an
    /// otherConfig also "other_valuation": its configuration and both values.
    QJsonObject evidence;

    bool approvable() const { return blocker == ApprovalBlocker::None; }
};

namespace ApprovalRules {

ApprovalComparison compare(const ApprovalInputs &inputs, const QString &candidate);
/// `config` with the other valuation: revealed for an imagined one, imagined
/// (with its C) for a revealed one. Results under it come from stored records
/// (ProjectScores::resultsFromRecords) like the configuration's own.
ReplayConfig otherValuation(ReplayConfig config);
/// The code of a warning as stored in the evidence.
QString warningCode(ApprovalWarning warning);
/// The sentence for a blocker or warning: the one wording, which `dreamrsi
/// approve` prints and the Approve dialog shows (translated where the
/// application loaded a translation).
QString describe(const ApprovalComparison &comparison);
QString describe(const ApprovalComparison &comparison, ApprovalWarning warning);
/// The approval to store for an approvable comparison.
Approval approvalOf(const ApprovalComparison &comparison, const QString &who, const QString &note,
                    const QDateTime &when = QDateTime::currentDateTimeUtc());
/// The version `--best` picks: the version of highest value among the
/// deployed one and the approvable others; empty when none has a value. The
/// deployed version itself when nothing is worth more (nothing to approve).
QString bestCandidate(const ApprovalInputs &inputs);

} // namespace ApprovalRules
} // namespace dreamrsi
