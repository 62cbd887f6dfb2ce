#pragma once

#include "roundtypes.h"
#include "backend/slurmsettings.h"

#include "model/cell.h"
#include "base/result.h"

#include <functional>
#include <memory>
#include <optional>

namespace dreamrsi {

class DiscoveryAgent;
class EvaluationBackend;

/// How a live round is put together: the one place where the workbench's
/// Round panel, `dreamrsi round`, `dreamrsi loop` and the recursive loop make
/// a round's discovery agent, its evaluation backend and its runner from one
/// configuration (docs/online.md#a-live-round). A round then runs the same
/// whichever of them started it.
struct RoundSession
{
    /// Everything a round is made from.
    struct Config
    {
        RoundConfig round;
        /// Evaluate on a Slurm cluster with these settings; none: on this machine.
        std::optional<SlurmSettings> slurm;
    };

    /// Receives a backend's own lines (a Slurm job's states and the
    /// scheduler's reasons), from the backend's poller thread.
    using LogSink = std::function<void(const QString &line)>;

    /// The evaluation backend: Slurm when `slurm` is given, else local.
    static std::shared_ptr<EvaluationBackend> makeBackend(const std::optional<SlurmSettings> &slurm, LogSink log = {});
    /// The discovery agent of `round` for `task` (the round's task, or a
    /// resumed iteration's stored one when the round names none). A failure
    /// when the agent cannot run (a missing key, an unknown kind).
    static Result<std::shared_ptr<DiscoveryAgent>> makeAgent(const RoundConfig &round, const QString &task);
    /// Counts a stored cell: one cell, one agent call, its tokens and cost
    /// (the payload's `agent` object) and the best finite score. The runner
    /// counts its own round with it, and a workbench following a round that
    /// runs in another process counts the cells it reads back the same way.
    static void count(RoundCounters &counters, const Cell &cell);
};

} // namespace dreamrsi
