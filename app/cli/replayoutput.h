#pragma once

#include "replay/replayresult.h"

#include <QString>
#include <QTextStream>

namespace dreamrsi {

/// How a replay's result is printed: by `replay --world` and `replay --project` alike.
struct ReplayPrinting
{
    bool json = false; ///< --json: the JSON of docs/replay.md#the-json-output, else a table
    QString tracePath; ///< --trace FILE: one JSON line per episode, empty when not asked
};

/// Prints a finished replay (JSON or a table) and writes the trace file when
/// asked. Returns the exit status: 0 when every sweep succeeded, 1 on a
/// policy error or a trace file that could not be written. `worldEntries`,
/// when given, are the JSON entries of result.worlds already written
/// (ReplayJson::sweepToIndentedJson).
int printReplayResult(const ReplayResult &result, const ReplayPrinting &printing, QTextStream &out, QTextStream &err,
                      const QList<QByteArray> *worldEntries = nullptr);

} // namespace dreamrsi
