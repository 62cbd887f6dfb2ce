#pragma once

#include "replay/replayprocess.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

namespace dreamrsi {

/// The outcome of one blocking child replay.
struct SandboxedReplayOutcome
{
    std::shared_ptr<const ReplayProcessOutput> output; ///< null when the child failed
    QString error;                   ///< why there is no output (limit, crash, cancelled, bad request)
    bool cancelled = false;
};

/// Runs a ReplayProcess to its end on the calling thread: starts the child,
/// spins a local event loop until it finishes or fails, and kills it when
/// `cancel` turns true (polled every 50 ms). For worker threads (dreaming in
/// the GUI) and the CLI; never call it on the GUI thread.
SandboxedReplayOutcome runSandboxedReplay(const ReplayProcessRequest &request, const std::atomic_bool &cancel,
                                          const std::function<void(int done, int total)> &progress = {});

} // namespace dreamrsi
