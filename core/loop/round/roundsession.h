#pragma once

#include "roundoptions.h"
#include "roundtypes.h"
#include "backend/slurmsettings.h"
#include "store/storetypes.h"

#include "model/cell.h"
#include "base/result.h"

#include <QFuture>

#include <functional>
#include <memory>
#include <optional>

namespace dreamrsi {

class DiscoveryAgent;
class EvaluationBackend;
class ProjectStore;

/// A round made ready to run by RoundSession::prepare: what its RoundRunner
/// is made of. The caller makes the runner in its own thread
/// (`RoundRunner(store, config, agent, backend)`), connects to it, then
/// starts it, so that no event of the round is missed.
struct PreparedRound
{
    /// The configuration as the round runs it: a resumed iteration's task
    /// filled in when the options named none.
    RoundConfig config;
    std::shared_ptr<DiscoveryAgent> agent;
    std::shared_ptr<EvaluationBackend> backend;
};

/// How a live round is put together: the one place where the workbench's
/// Round panel, `dreamrsi round`, `dreamrsi loop` and the recursive loop make
/// a round's discovery agent, its evaluation backend and its runner from one
/// configuration (RoundOptions, docs/online.md#a-live-round). A round then
/// runs the same whichever of them started it.
struct RoundSession
{
    /// Receives a backend's own lines (a Slurm job's states and the
    /// scheduler's reasons), from the backend's poller thread.
    using LogSink = std::function<void(const QString &line)>;

    /// What the caller already has; a part left empty is made from the options.
    struct Parts
    {
        std::shared_ptr<DiscoveryAgent> agent;
        std::shared_ptr<EvaluationBackend> backend;
    };

    /// Makes a round of `options` in the project open in `store`, the one
    /// way for the window and the commands: checks that the project is open
    /// for writing and that the round has a task; for a resume whose options
    /// name no task, reads the iteration's stored one (a failure when the
    /// iteration does not exist); then makes the discovery agent for that
    /// task and the evaluation backend (local, or Slurm with `options.slurm`;
    /// its lines go to `log`), unless `given` has them. The backend is not
    /// asked to prepare here (a Slurm backend asks its cluster, which
    /// blocks): the runner does it as it starts, and the commands do it
    /// first with checkedBackend().
    ///
    /// Ready at once unless the stored iteration must be read; then it
    /// finishes on the store's thread (the agent is a plain object, made
    /// there). Failures say what is wrong, e.g. "agent openai: no API key …".
    static QFuture<Result<PreparedRound>> prepare(ProjectStore *store, const RoundOptions &options, LogSink log = {},
                                                  Parts given = {});

    /// Opens the project at `path` for writing, or creates it (named after
    /// its file, with `task`) when there is no file: how `dreamrsi round` and
    /// `dreamrsi loop` start. `created`, when given, says which. Blocks: not
    /// for the GUI thread.
    static StoreResult<OpenReport> openOrCreate(ProjectStore &store, const QString &path, const QString &task,
                                                bool *created = nullptr);
    /// The evaluation backend: Slurm when `slurm` is given, else local.
    static std::shared_ptr<EvaluationBackend> makeBackend(const std::optional<SlurmSettings> &slurm, LogSink log = {});
    /// makeBackend(), then EvaluationBackend::prepare(): what `dreamrsi
    /// round` and `dreamrsi loop` check before they touch the project (a
    /// missing partition costs nothing). A failure "<backend> backend:
    /// <problem>". Blocks (a Slurm backend asks its cluster): not for the
    /// GUI thread.
    static Result<std::shared_ptr<EvaluationBackend>> checkedBackend(const std::optional<SlurmSettings> &slurm,
                                                                      LogSink log = {});
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
