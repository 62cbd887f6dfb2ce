#pragma once

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// The prefix as it stood when the policy was asked for a round.
struct PrefixSummary
{
    int calls = 0;            ///< cells revealed so far
    double best = 0.0;        ///< best effective score so far (0 when none)
    QString bestId;           ///< id of the cell holding `best`, empty when none revealed
    double attainment = 0.0;  ///< best / S clamped to [0, 1] (0 for an unscorable world)
    QList<int> openedBranches;
    QStringList legal;        ///< legal ids, sorted by (branch, attempt)
};

/// One revealed cell in a trace: enough to draw it without the world.
struct RevealedCell
{
    QString id;
    int branch = 0;
    int attempt = 0;
    std::optional<double> score;
    double effective = 0.0;
    QString failClass;
};

/// One round of an episode, for the GUI stepper and the dreaming agent.
/// The last round of an episode that ended in a policy error holds the
/// offending batch (possibly empty), nothing revealed, and the error.
struct RoundTrace
{
    int round = 0;              ///< k before the round (0 for the first)
    PrefixSummary prefix;
    QStringList batch;          ///< what the policy returned
    QList<RevealedCell> revealed; ///< in reveal order; empty for a rejected batch
    QString error;
};

} // namespace dreamrsi
