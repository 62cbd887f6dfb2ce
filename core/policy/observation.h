#pragma once

#include "cellmeta.h"

#include <QString>

#include <optional>

namespace dreamrsi {

/// A revealed cell as a policy sees it (docs/policy-api.md#observations "observation").
///
/// `deltaVsBaseline = score − baselineScore` when both are numbers;
/// `deltaVsParent = score − parent's score` for attempt > 0 and
/// `score − baselineScore` for attempt 0; either is empty when an operand
/// is not a number. The parent of a revealed cell is always revealed.
struct Observation
{
    CellMeta meta;
    std::optional<double> score;
    bool evaluated = false;
    std::optional<bool> valid;
    QString failClass;
    std::optional<QString> error;
    std::optional<qint64> nValid;
    std::optional<qint64> nTotal;
    std::optional<double> deltaVsBaseline;
    std::optional<double> deltaVsParent;

    /// `deltaVsParent > 0` (docs/policy-api.md#helpers improvedVsParent).
    bool improvedVsParent() const { return deltaVsParent && *deltaVsParent > 0.0; }
    /// `deltaVsBaseline > 0` (docs/policy-api.md#helpers improvedVsBaseline).
    bool improvedVsBaseline() const { return deltaVsBaseline && *deltaVsBaseline > 0.0; }
    /// Evaluated, no error and fail class "ok", whatever `valid` says (docs/policy-api.md#helpers isSuccess).
    bool isSuccess() const { return evaluated && !error && failClass == QLatin1String("ok"); }
    /// Fail class "env" (docs/policy-api.md#helpers failedHard).
    bool failedHard() const { return failClass == QLatin1String("env"); }

    friend bool operator==(const Observation &, const Observation &) = default;
};

} // namespace dreamrsi
