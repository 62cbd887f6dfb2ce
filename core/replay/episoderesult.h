#pragma once

#include "roundtrace.h"

#include "policy/gridplan.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// One point of the anytime curve: after `calls` reveals, the best effective
/// score so far divided by S (0 for an unscorable world).
struct CurvePoint
{
    int calls = 0;
    double attainment = 0.0;
    friend bool operator==(const CurvePoint &, const CurvePoint &) = default;
};

/// The result of one episode (docs/replay.md#the-result-of-an-episode). An immutable value once the
/// engine returns it.
struct EpisodeResult
{
    double beta = 0.0;
    int calls = 0;            ///< n = |R|
    int rounds = 0;           ///< k*
    double best = 0.0;        ///< s = max e over revealed (0 when none)
    double attainment = 0.0;  ///< min(max(s/S, 0), 1); 0 when the world is unscorable
    bool scorable = true;     ///< false when the world's S = 0 (attainment is then meaningless)
    QStringList revealed;     ///< reveal order
    QList<CurvePoint> curve;  ///< one point per reveal
    std::optional<GridPlan> plan; ///< the planGrid restriction applied, if any
    QString error;            ///< "round N: reason" on a policy error, else empty
    QList<RoundTrace> trace;  ///< filled only when tracing was asked for

    bool ok() const { return error.isEmpty(); }
};

} // namespace dreamrsi
