#pragma once

#include "base/result.h"

#include <QString>
#include <QStringList>

namespace dreamrsi {

/// A live round's resume journal (docs/online.md#resume): before a
/// batch's attempts start, `attempts/<iteration>/rounds/<k>.json` records
/// it ({"round": k, "batch": [ids]}), so that a resume knows which attempts
/// were in flight and rebuilds steering in round order. A cheap value over
/// the iteration's folder; reads never fail (a missing or unreadable round
/// file is an empty batch).
class RoundJournal
{
public:
    explicit RoundJournal(QString iterationDir) : m_dir(std::move(iterationDir)) {}

    /// The file of round `round` (0-based).
    QString fileOf(int round) const;
    /// Records round `round`'s batch, atomically (QSaveFile).
    Result<Done> record(int round, const QStringList &batch) const;
    /// The last recorded round and its batch in *batch; -1 when none.
    int lastRound(QStringList *batch) const;
    /// Every recorded batch, by round.
    QList<QStringList> batches() const;

private:
    QStringList read(int round) const;

    QString m_dir;
};

} // namespace dreamrsi
