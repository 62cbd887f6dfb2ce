#pragma once

#include "loop/dream/dreamsession.h"

#include <QCommandLineParser>

namespace dreamrsi {

/// The dreaming flags shared by `dreamrsi dream` and `dreamrsi loop`, read
/// into the parser-free DreamOptions (core/loop/dream/dreamsession.h).
namespace DreamFlags {

/// Registers the flags. `agentOption` is "agent" for dream and
/// "dream-agent" for loop; with `shared` false the flags a round also has
/// (--model, --base-url, --command, --seed) are left to the caller to
/// register, and the replays' W is --replay-workers (--workers being the
/// round's). --workers/--replay-workers, --lambda, --betas and
/// --replay-rounds override the project's replay configuration for this
/// run only; unset, the project's applies (settings.replay stays empty).
void add(QCommandLineParser &parser, const QString &agentOption = QStringLiteral("agent"), bool shared = true);
/// Reads and checks them; a failure naming the flag on bad input.
Result<DreamOptions> read(const QCommandLineParser &parser, const QString &agentOption = QStringLiteral("agent"),
                          bool shared = true);
/// The flag that overrides the replays' W: "workers", or "replay-workers" when not `shared`.
QString workersOption(bool shared);

} // namespace DreamFlags
} // namespace dreamrsi
