#pragma once

// Probes: a few real calls after a deployment, made where the world model is
// blind, so that the next dream has evidence of depths and directions the
// deployed policy never reached (docs/online.md#probes).

#include "worldmodel.h"

#include "model/discoverytree.h"

#include <QSet>
#include <QString>

#include <optional>

namespace dreamrsi {

/// `--probe auto|early|off|N`: at most how many probe calls follow one deployment.
struct ProbeSetting
{
    /// What `auto` allows a deployment: the prototype's three calls.
    static constexpr int AutoCalls = 3;
    /// What `early` allows each of a task's first EarlyDeployments
    /// deployments while none of them has shown a refinement pay
    /// (Probes::refiningPaid); after them, or once one has, AutoCalls
    /// (docs/online.md#probes).
    static constexpr int EarlyCalls = 6;
    static constexpr int EarlyDeployments = 3;
    /// The most `--probe N` takes.
    static constexpr int MaxCalls = 100;

    enum class Mode { Off, Auto, Early, Count };
    Mode mode = Mode::Off;
    int count = 0; ///< N when Mode::Count

    static ProbeSetting off() { return {}; }
    static ProbeSetting automatic() { return {Mode::Auto, 0}; }
    static ProbeSetting early() { return {Mode::Early, 0}; }
    static ProbeSetting calls(int n) { return n <= 0 ? off() : ProbeSetting{Mode::Count, n}; }

    /// The most probe calls any deployment makes (0: none).
    int budget() const
    {
        switch (mode) {
        case Mode::Auto:
            return AutoCalls;
        case Mode::Early:
            return EarlyCalls;
        case Mode::Count:
            return count;
        case Mode::Off:
            break;
        }
        return 0;
    }
    /// The probe calls of a deployment that follows `deployments` earlier
    /// deployments of its task, `refiningPaid` when one of them showed a
    /// refinement raising its branch's best: for `early` EarlyCalls while
    /// deployments < EarlyDeployments and nothing has paid, else AutoCalls;
    /// budget() for the others.
    int budgetAfter(qsizetype deployments, bool refiningPaid) const
    {
        if (mode != Mode::Early)
            return budget();
        return deployments < EarlyDeployments && !refiningPaid ? EarlyCalls : AutoCalls;
    }
    /// Whether budgetAfter(deployments, …) depends on its `refiningPaid`.
    bool asksWhetherRefiningPaid(qsizetype deployments) const
    {
        return mode == Mode::Early && deployments < EarlyDeployments;
    }
    /// budgetAfter() that looks through the history only when the budget
    /// depends on it: `refiningPaid()` (a scan of the earlier deployments'
    /// trees) is called only while asksWhetherRefiningPaid(deployments).
    template<typename RefiningPaid>
    int budgetAfter(qsizetype deployments, RefiningPaid &&refiningPaid) const
    {
        return budgetAfter(deployments, asksWhetherRefiningPaid(deployments) && refiningPaid());
    }
    bool enabled() const { return budget() > 0; }
    /// "auto", "early", "off" or N.
    QString name() const;
    /// Reads "auto", "early", "off" or a whole number 0 … MaxCalls (0 is
    /// off); an error naming the flag and the value otherwise.
    static std::optional<ProbeSetting> parse(const QString &flag, const QString &text, QString *error);
    friend bool operator==(const ProbeSetting &, const ProbeSetting &) = default;
};

/// One probe call: which cell and why.
struct ProbeCall
{
    enum class Kind {
        Depth, ///< the next attempt of the episode's best branch, at a blind depth
        Root,  ///< the first attempt of an unopened branch whose direction is blind
    };
    Kind kind = Kind::Depth;
    int branch = 0;
    int attempt = 0;
    /// Why, in words the tree and the log show: "depth 4 of d3 had 1 value".
    QString reason;
    /// "b<branch>a<attempt>".
    QString cellId() const { return QStringLiteral("b%1a%2").arg(branch).arg(attempt); }
};

namespace Probes {

/// True when a branch of `tree` has a refinement that raised its best: an
/// attempt past the first whose effective score (Cell::effectiveScore)
/// exceeds that of every attempt before it on the branch.
bool refiningPaid(const DiscoveryTree &tree);

/// The tag every probe cell carries.
inline QString tag() { return QStringLiteral("probe"); }
/// The payload key of a probe cell's reason.
inline QString reasonKey() { return QStringLiteral("probe_reason"); }
/// True when `cell` was a probe call.
bool isProbe(const Cell &cell);

/// The next probe after the deployment whose cells are `episode` (a tree
/// of the cells it revealed, probes so far included), under `model` fitted
/// on the history and the episode, on the grid of `episode` (its `grid`,
/// else 10 × 10). In this order:
/// 1. the episode's best branch (the best ok score; ties: the lowest id)
///    goes on one attempt past its last when a blind depth for the branch's
///    direction lies within the grid at that attempt or after it, no more
///    than `callsLeft` attempts on (the attempts before the blind depth are
///    made "on the way" to it: a depth the history already shows must not
///    wall off the blind ones behind it);
/// 2. else the lowest unopened branch id of the grid whose first attempt is
///    blind for its direction (Imagination::branchTag with `directions`).
/// None when nothing the grid allows is blind: a history that already
/// shows a depth is not probed there again. Cells in `unavailable`
/// ("b<branch>a<attempt>": the caller cannot make them) are skipped, and
/// no branch is continued through one.
std::optional<ProbeCall> next(const DiscoveryTree &episode, const WorldModel &model, const QStringList &directions,
                              const QSet<QString> &unavailable = {}, int callsLeft = 1);

/// The probes a deployment would make, planned on `episode` without making
/// them (each assumed to fill its stratum by one value): what the World
/// Model page lists for the next deployment. At most `budget`.
QList<ProbeCall> plan(const DiscoveryTree &episode, const WorldModel &model, const QStringList &directions, int budget);

} // namespace Probes
} // namespace dreamrsi
