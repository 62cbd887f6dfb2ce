#pragma once

#include "policychoice.h"

#include "base/result.h"
#include "store/storetypes.h"

#include <QList>
#include <QString>

namespace dreamrsi {

class ProjectStore;

/// A policy choice made concrete in a project: the stored version that runs
/// (by ProjectPolicies::specFor, the one rule) and why it was chosen.
struct ResolvedPolicy
{
    PolicyVersion version;
    QString description; ///< which policy and why ("latest approved version v3")
    /// Manual exploration: a person picks every batch; the stored version
    /// named "manual" is a placeholder script that only records who chose.
    bool manual = false;
};

/// The one resolution of a PolicyChoice against a project, for every caller
/// that asks which version runs: a live round (RoundPolicy), a dream's
/// version 0 (Dreamer::deployedVersion) and the window's idea of the
/// deployed version (newestApproval).
namespace PolicyResolution {

/// The approval that deploys a version: the newest by time, then by id
/// (then the later in the list); null when there is none.
const Approval *newestApproval(const QList<Approval> &approvals);

/// Resolves `choice` against the project (blocking: waits for the store; not
/// on the GUI thread):
/// - latest approved: `resumedVersion` (the version of a round being
///   resumed) when given and stored, else the newest approval's version,
///   else today's `builtin:portfolio`;
/// - a built-in: the stored version of today's code
///   (ProjectPolicies::currentBuiltin: `builtin:NAME`, or
///   `builtin:NAME@<hash>` beside an older build's `builtin:NAME`);
/// - a stored version: by name, else by id;
/// - manual: the stored placeholder version "manual".
/// A built-in's or the manual placeholder's version is stored the first time
/// it is chosen, so every iteration and every dream names its version.
/// Fails for an unknown built-in or stored version, naming what exists.
Result<ResolvedPolicy> resolve(ProjectStore &store, const PolicyChoice &choice, PolicyVersionId resumedVersion = 0);

/// A `--policy` argument of the commands that replay (`replay --project`,
/// `plot`, `loop --worlds`) as a version, in memory, before anything is
/// stored: "builtin:NAME" is today's built-in among `stored`
/// (ProjectPolicies::currentBuiltin); an existing file ending in ".js" is its
/// script (origin human), named by the file's base name; else a version of
/// `stored` by that name, else an existing file by any other name (a
/// script). `name`, when given, renames a built-in's or a
/// file's version (id 0: not stored under that name yet). Fails naming the
/// unknown built-in (and the known ones), the unreadable file, or the
/// missing version.
Result<PolicyVersion> versionOfArgument(const QString &argument, const QList<PolicyVersion> &stored = {},
                                        const QString &name = {});

} // namespace PolicyResolution
} // namespace dreamrsi
