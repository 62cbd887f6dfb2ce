#pragma once

// The built-in policy improver's rules (docs/online.md#dreaming), apart from
// its step (policyimprover.cpp): the draws and edits of tunables and the
// learned tables (policyimproverrules.cpp), and what the history suggests
// (policyimproverproposals.cpp). Private to the improver.

#include "model/splitmix64.h"

#include "historystats.h"
#include "policydeveloper.h"
#include "policytunables.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace dreamrsi::ImproverRules {

/// The improver's draws (uniform(), below()): splitmix64, small, portable
/// and the same on every platform.
class Random : public SplitMix64
{
public:
    using SplitMix64::SplitMix64;
    double unit() { return uniform(); }
};

/// A value as the report prints it (6 decimals, "none" without one).
QString formatValue(const std::optional<double> &v);

/// A new value for `t`, different from its current one when possible.
std::optional<double> mutate(const PolicyTunable &t, Random &rng);

/// A value one step from `t`'s, up (`up`) or down, for the check of which
/// tunables act: ±1 for an integer, a tenth of the range (or ×/÷ 1.25) for a
/// real, the next or previous alternative of a choice; none at a bound.
std::optional<double> neighbour(const PolicyTunable &t, bool up);

/// A script with its learned tables rewritten from the history.
struct Learned
{
    QString code;
    QStringList changes;             ///< what was rewritten, for the report; empty = nothing
};

/// Rewrites the learned tables of `code` from `stats` (DIRECTION_PRIORITY,
/// DIRECTION_DEEPEST_GAIN, DIRECTION_STALL, DEPTH_EVIDENCE); numbers are never
/// rewritten here, what the history suggests for them is a proposal.
Learned learnTables(const QString &code, const HistoryStats &stats);

const PolicyTunable *findTunable(const QList<PolicyTunable> &tunables, const QString &name);
/// "NAME from → to, …" of a candidate's changes.
QString changesText(const QList<TunableChange> &changes);

/// `code` with the tunables named in `values` set (those it lacks, and
/// values it already has, are left out); `changes` lists what changed.
QString withValues(const QString &code, const QList<std::pair<QString, double>> &values, QList<TunableChange> *changes);

/// A candidate the history asks for, before any random step.
struct Proposal
{
    QString key;                     ///< the kind, offered once per dream
    QList<std::pair<QString, double>> values;
    QString why;
};

/// The share of the history's gain that came from refinements (attempts
/// ≥ 1); 0 when the history gained nothing.
double refinementShare(const HistoryStats &stats);

/// The candidates the history asks for, in order of what it shows, each a
/// kind offered at most once per dream (docs/online.md#what-the-history-suggests).
QList<Proposal> proposals(const QString &code, const HistoryStats &stats, double beta, int workers);

} // namespace dreamrsi::ImproverRules
