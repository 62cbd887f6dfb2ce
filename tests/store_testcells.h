// Deterministic cells shared by the store tests and their helper process.
#pragma once

#include "model/cell.h"

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>

namespace dreamrsi::storetest {

/// Cell `seq` of crash run `run`: branches 0..6 opened first, then deepened,
/// so that every prefix by seq is a valid tree.
inline Cell streamedCell(int run, qint64 seq)
{
    Cell c;
    c.branch = int(seq % 7);
    c.attempt = int(seq / 7);
    c.id = QStringLiteral("b%1a%2").arg(c.branch).arg(c.attempt);
    c.seq = seq;
    const bool failed = seq % 5 == 3;
    if (!failed)
        c.score = double(run) + double(seq) / 1000.0;
    c.evaluated = !failed;
    c.valid = !failed;
    c.failClass = QLatin1String(failed ? FailClass::Compile : FailClass::Ok);
    if (failed)
        c.error = QStringLiteral("error: expected ';' (run %1, seq %2)").arg(run).arg(seq);
    c.nValid = failed ? 0 : 5;
    c.nTotal = 5;
    c.tags = {QStringLiteral("run:%1").arg(run), QStringLiteral("seq:%1").arg(seq)};
    c.payload.insert(QStringLiteral("proposal"), QStringLiteral("proposal %1/%2 ").repeated(20).arg(run).arg(seq));
    c.payload.insert(QStringLiteral("program"), QStringLiteral("int main() { return %1; }\n").arg(seq).repeated(40));
    c.payload.insert(QStringLiteral("stdout"), QStringLiteral("score %1").arg(seq));
    c.payload.insert(QStringLiteral("metrics"), QJsonObject{{QStringLiteral("seq"), seq}, {QStringLiteral("run"), run}});
    c.payload.insert(QStringLiteral("agent"), QJsonObject{{QStringLiteral("name"), QStringLiteral("builtin")},
                                                          {QStringLiteral("model"), QStringLiteral("none")},
                                                          {QStringLiteral("tokens_in"), 1000 + seq},
                                                          {QStringLiteral("tokens_out"), 200 + seq},
                                                          {QStringLiteral("cost"), 0.001 * double(seq)}});
    c.payload.insert(QStringLiteral("notes"), QJsonArray{run, QStringLiteral("x"), seq});
    return c;
}

/// The artifact stored with that cell.
inline QByteArray streamedArtifact(int run, qint64 seq)
{
    return QByteArray("artifact of run ") + QByteArray::number(run) + " seq " + QByteArray::number(seq) + '\n'
           + QByteArray(int(512 + (seq * 37) % 4096), char('a' + seq % 26));
}

} // namespace dreamrsi::storetest
