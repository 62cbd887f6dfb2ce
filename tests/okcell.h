#pragma once

// A scored cell for hand-made trees in tests (tst_probes, tst_gui_imagination).

#include "model/cell.h"

#include <QString>

namespace dreamrsi::test {

/// An ok cell of branch b, attempt a, with `score`, tagged `direction:D` when a direction is given.
inline Cell okCell(int b, int a, double score, qint64 seq, const QString &direction = {})
{
    Cell c;
    c.id = QStringLiteral("b%1a%2").arg(b).arg(a);
    c.branch = b;
    c.attempt = a;
    c.seq = seq;
    c.score = score;
    c.evaluated = true;
    c.valid = true;
    c.failClass = QString::fromLatin1(FailClass::Ok);
    if (!direction.isEmpty())
        c.tags = {QStringLiteral("direction:") + direction};
    return c;
}

} // namespace dreamrsi::test
