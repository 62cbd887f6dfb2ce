#pragma once

#include "project/reevaluationstats.h"
#include "store/storetypes.h"

#include "base/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>

namespace dreamrsi {

class EvaluationBackend;
class ProjectStore;

/// Which cells to re-evaluate: the best `top` cells of an iteration by their
/// recorded score, or the cells it names.
struct ReevaluationSelection
{
    IterationId iteration = 0; ///< 0: the project's latest iteration
    int top = 0;               ///< K ≥ 1 for the best K; 0 when `cellIds` names the cells
    QStringList cellIds;
};

/// One chosen cell: its stored program, or why it cannot be re-evaluated here.
struct ReevaluationTarget
{
    QString cellId;
    std::optional<double> score; ///< the recorded score
    QByteArray program;          ///< the stored program; empty when `skipped`
    QString skipped;             ///< why nothing is run for it (no program stored, a GPU task without a GPU, …)
};

/// The cells of one iteration made ready to re-evaluate (Reevaluation::plan).
struct ReevaluationPlan
{
    IterationId iteration = 0;
    QString task;            ///< the iteration's task as the evaluator takes it (built-in name or folder)
    QString programFileName; ///< the file the program is written to (the round's workspace name)
    QList<ReevaluationTarget> targets;

    /// How many targets have a program to run.
    int runnable() const;
};

/// What a re-evaluation did.
struct ReevaluationReport
{
    IterationId iteration = 0;
    /// The runnable targets' statistics from every repeat stored for them
    /// (earlier runs' included), in the plan's order.
    QList<ReevaluationStats> stats;
    /// Targets skipped: cell id and reason (nothing stored for them).
    QList<std::pair<QString, QString>> skipped;
    int stored = 0;         ///< repeats this run stored
    bool cancelled = false; ///< cancel was raised before every repeat ran
};

/// Re-evaluation of stored cells (docs/online.md#re-evaluating-the-best):
/// each repeat is one full sandboxed evaluation of a cell's stored program
/// by the backend a round would use (this machine, or Slurm), stored as a
/// ReevaluationRecord beside the cell. The cell's recorded score never
/// changes, and replay keeps using it. The same calls serve `dreamrsi
/// reevaluate` and the workbench (which runs them off the GUI thread).
class Reevaluation
{
public:
    /// Called after each repeat: repeats done, repeats planned, the cell just evaluated.
    using Progress = std::function<void(int done, int total, const QString &cellId)>;

    /// Reads the iteration (the latest when the selection names none) and
    /// chooses its cells: the best K by recorded score (cells without a
    /// score are never among them), or the named cells, in the order named.
    /// Each target gets its stored program (the program artifact the round
    /// stored, else the program kept in the cell) or the reason it is
    /// skipped: no program stored, the iteration's task not found here, a
    /// GPU task while `localBackend` and this machine has no GPU. A failure
    /// for an unknown iteration or cell (naming every unknown one), an
    /// iteration without scored cells for `top`, or a selection naming
    /// neither K nor cells. Blocks on the store: not for the GUI thread.
    static Result<ReevaluationPlan> plan(ProjectStore *store, const ReevaluationSelection &selection, bool localBackend);

    /// Runs `repeats` evaluations of each runnable target, one after
    /// another, on `backend`; each is stored the moment it ends. When
    /// `cancel` turns true the evaluation under way is abandoned (nothing
    /// stored for it) and the run ends, reporting what was stored. A
    /// failure when the store refuses a record. Blocks.
    static Result<ReevaluationReport> run(ProjectStore *store, const ReevaluationPlan &plan, int repeats,
                                          EvaluationBackend &backend, const std::atomic_bool &cancel,
                                          const Progress &progress = {});

    /// The statistics of the plan's runnable targets from what is stored now.
    static Result<QList<ReevaluationStats>> stats(ProjectStore *store, const ReevaluationPlan &plan);

    /// Why a task cannot be evaluated on this machine (a CUDA task without
    /// a GPU), or empty.
    static QString whyNotHere(const QString &task);
};

} // namespace dreamrsi
