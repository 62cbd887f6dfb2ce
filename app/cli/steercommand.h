#pragma once

#include "loop/round/steeringinbox.h"

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi steer --project P.dreamrsi [--by NAME] [--why TEXT] close B |
/// refine B | hint B|new TEXT | pause | continue`: drops the request in the
/// project's inbox for the process running the round there and waits for
/// its answer. 0 applied, 1 refused (the reason on stderr; also when no
/// round accepting steering runs), 2 bad usage.
int runSteerCommand(const QStringList &args, QTextStream &out, QTextStream &err);

/// The request that `words` ask for, as `dreamrsi steer` takes them after
/// its options: `close B`, `refine B`, `hint B|new TEXT…`, `pause`,
/// `continue` or `kill ATTEMPT`; its action and target set, nothing else.
/// A failure saying what is wrong with the words otherwise. (`dreamrsi
/// steer` and `dreamrsi serve`'s POST /api/v1/steer read them here.)
Result<SteeringRequest> parseSteeringWords(const QStringList &words);

/// Sends `request` to the process holding `projectPath` and waits for the
/// answer (`timeoutS` ≤ 0: as long as that process runs and accepts
/// requests). `kind` is the live kind the request is for ("round" or
/// "approval"). The answer; a failure saying why when no such process
/// accepts requests or it ended before answering.
Result<SteeringAck> sendSteeringRequest(const QString &projectPath, SteeringRequest request, const QString &kind,
                                        double timeoutS);

} // namespace dreamrsi
