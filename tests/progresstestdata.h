// Iterations made in the tests of the Progress figure: cells whose every
// prefix by seq is a valid tree (branches 0..2 opened first, then deepened).
#pragma once

#include "model/cell.h"
#include "store/storetypes.h"

#include <cmath>
#include <limits>
#include <optional>

namespace dreamrsi::progresstest {

/// One cell; `score` none for a failed call.
inline Cell cell(qint64 seq, std::optional<double> score)
{
    Cell c;
    c.branch = int(seq % 3);
    c.attempt = int(seq / 3);
    c.id = QStringLiteral("b%1a%2").arg(c.branch).arg(c.attempt);
    c.seq = seq;
    c.score = score;
    c.evaluated = score.has_value();
    c.valid = score.has_value() && std::isfinite(*score);
    c.failClass = QLatin1String(c.valid.value_or(false) ? FailClass::Ok : FailClass::Compile);
    if (!c.valid.value_or(false))
        c.error = QStringLiteral("failed");
    return c;
}

/// An iteration with these scores, in call order (NaN: an invalid score).
inline IterationData iteration(IterationId id, const QList<std::optional<double>> &scores)
{
    IterationData d;
    d.info.id = id;
    for (qsizetype i = 0; i < scores.size(); ++i)
        d.cells.append(cell(i, scores.at(i)));
    d.info.cellCount = d.cells.size();
    return d;
}

} // namespace dreamrsi::progresstest
