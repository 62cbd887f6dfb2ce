#pragma once

#include "policy/policyspec.h"
#include "project/policychoice.h"
#include "store/storetypes.h"

#include <QString>

#include <optional>

namespace dreamrsi {

class ProjectStore;

/// The policy that drives a live round (docs/online.md#commands `--policy`):
/// the version PolicyResolution::resolve names for the round's choice (a
/// stored version's name or id, a built-in, manual exploration, or, by
/// default, the version of a resumed round, else the latest approved
/// version, else `builtin:portfolio`), run by the project's one rule
/// (ProjectPolicies::specFor) with the round's seed.
struct RoundPolicy
{
    PolicySpec spec = PolicySpec::builtin(QStringLiteral("portfolio"));
    PolicyVersionId version = 0;
    QString description; ///< which policy and why ("latest approved version v3")
    /// Manual exploration (`manual`): a person picks every batch (SteeringInbox
    /// `batch` requests); the stored version named "manual" is a placeholder
    /// script that only makes the iteration record who chose.
    bool manual = false;

    /// Blocking (waits for the store); call it off the GUI thread.
    /// `resumedVersion` is the version of the round being resumed (0 = none).
    static Result<RoundPolicy> resolve(ProjectStore &store, const PolicyChoice &choice, PolicyVersionId resumedVersion,
                                       quint64 seed);
};

} // namespace dreamrsi
