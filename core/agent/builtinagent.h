#pragma once

// The built-in discovery agent (docs/online.md#the-built-in-agent, "Built-in agent"): offline, no
// key, deterministic, one search strategy per bundled task. It is what a
// fresh machine, CI and the demo project run with.
//
// What it promises:
//  - Every attempt returns a complete program in the task's language that
//    the task's real evaluator scores; nothing is precomputed into it.
//  - The program depends only on (config.seed, context.seed, context.cellId),
//    the parent program, the parent's score and error, and the direction: the
//    same inputs give the same program, byte for byte. A different seed gives
//    a different program.
//  - Each program starts with a parameter block
//      `# dreamrsi-builtin: task=… direction=… generation=… seed=… key=value …`
//    (`//` for C++ and CUDA). Attempt 0 of a branch makes fresh parameters
//    for the branch's direction; a later attempt reads its parent's block
//    back and perturbs it (after a failed parent it falls back to cheaper or
//    safer settings and says so in the proposal).
//  - Directions: `context.directionHint` ("direction:NAME" or "NAME") when it
//    names one of the task's directions; an unknown hint is mapped onto one
//    of them by a stable hash; without a hint a refinement keeps its parent's
//    direction and attempt 0 takes direction[branch mod count], so
//    neighbouring branches follow different directions.
//  - For the three math tasks the agent runs the parent program again in the
//    evaluator's sandbox, reads what it printed and writes it into the new
//    program as WARM: the new program starts from the parent's construction
//    and keeps it as a candidate, so along a branch the score does not drop.
//    When the parent failed, the attempt starts from the branch's last
//    working attempt (from the history) instead.
//  - The three math tasks follow a progress model (builtinprogress.h), so a
//    round has a curve as a model's would: before writing a program the
//    agent draws how much of the task's gap (initial program → best published
//    value) this call may close: attempt 0 a part of its direction's ceiling
//    (never more than 60 %), a refinement a step of the remaining way to the
//    ceiling (or nothing: some changes do not pay). Ceilings and steps are
//    fixed per task and direction. The program's real search stops at that
//    target (or trims its result down to it). About a quarter of the programs
//    carry a realistic mistake (an invalid construction, a crash, a run that
//    never ends); the log names it, the proposal does not. A refinement that
//    can read a better program of an earlier iteration may go past its
//    direction's ceiling towards that program's score.
//  - Usage: model "builtin:<task>", no tokens, no cost, one call.
//  - propose() is safe to call from several threads at once (the strategies
//    are stateless; the cache of parent outputs is locked).
//
// The strategies:
//  - circle_packing_26 (Python, numpy/scipy): each start is optimised with a
//    quadratic penalty on overlaps and walls (L-BFGS-B, weight raised stage
//    by stage), polished with SLSQP under the exact constraints and repaired
//    exactly (walls, pairwise shrinking) so it is strictly valid. Hops move the
//    smallest circles of the best packing and optimise again. Directions:
//    hex-rows, grid-jitter, ring-layout (start patterns), random-multistart
//    (breadth), basin-hopping (depth). Refinements spend more on hops around
//    the parent's packing.
//  - c3_autocorrelation (Python): L-BFGS-B on the p-norm of the
//    autoconvolution with p raised towards the maximum, then an exact local
//    search over single step heights. Directions: smooth-minimax (random
//    start), negative-lobes (cosine dips), hill-climb (long exact search),
//    coarse-to-fine (few steps first; refinements resample the parent onto
//    finer grids). Refinements start from the parent's heights with the
//    schedule begun higher.
//  - sums_differences (Python): simulated annealing over integer sets with
//    add, remove and shift moves and incrementally kept sum/difference
//    counts, started from Conway's set times itself (a + stride·b; a stride
//    below 29 folds the copies into each other). Directions: tensor-anneal
//    (stride 29), folded-tensor (23), shift-moves, wide-fold (26, hotter),
//    greedy. Refinements continue from the parent's set at a new
//    temperature, with a new move mix.
//  - lasso_path (C++17, no Eigen so it builds fast): coordinate descent with
//    warm starts, every path point certified by a duality gap below 1e-10
//    (so it stays within the evaluator's 1e-6); variants toggle strong-rule
//    screening, active-set inner sweeps, covariance updates with cached Gram
//    columns, the gap-check interval and compiler flags. Directions:
//    strong-rules, active-set, covariance-updates, screen-and-active,
//    vector-math.
//  - cuda_kernels (CUDA): launch-shape and access variants of the starting
//    LayerNorm kernel (block size, grid, float4 access, warp-shuffle
//    reductions) or, when the parent defines convdiv_forward, of ConvDiv
//    (block size, grid, filter staged in shared memory). Directions:
//    vector-access, wide-blocks, more-blocks. Without a GPU these evaluate as
//    `env` after the build is checked.

#include "agent.h"
#include "builtinprogress.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <utility>

namespace dreamrsi {

/// The tasks the built-in agent knows, sorted.
QStringList builtinAgentTasks();

/// The directions the built-in agent knows for `task` (a built-in task name, or
/// a task folder whose task.json names a built-in evaluator), each with its
/// one-sentence description; empty for any other task. Live rounds hand them
/// out to branches as direction hints, whatever the agent.
QList<std::pair<QString, QString>> builtinTaskDirections(const QString &task);

/// The progress model's gap for `task` (a built-in task name or a folder
/// naming a built-in evaluator); nullopt when the task has none.
std::optional<BuiltinScale> builtinTaskScale(const QString &task);

/// How far each of the task's directions can go (its ceiling, step, first
/// reach and failure rate), in direction order; empty without a progress model.
QList<std::pair<QString, BuiltinProfile>> builtinTaskProfiles(const QString &task);

/// Every mistake the built-in agent can make on `task`'s programs (a text
/// substitution, BuiltinDefect) with the number of drafts it applies to
/// (its text found exactly once) among `samples` fresh drafts and as many
/// refinements per direction. A mistake that applies to none is dead: its
/// template changed under it, and the agent silently writes that kind of
/// program correctly. Empty for a task without mistakes.
QList<std::pair<BuiltinDefect, int>> builtinDefectCoverage(const QString &task, int samples);

/// Settings of the built-in agent that no user sets (tests do).
struct BuiltinAgentOptions
{
    /// Share of attempts whose program has a mistake; negative = each
    /// direction's own rate (builtinprogress.h). 0 makes every program correct.
    double failureRate = -1.0;
};

/// The built-in agent for `task`: a built-in task name, or a task folder whose
/// task.json names a built-in evaluator. For any other task, a failure naming
/// the task and the known ones.
Result<std::unique_ptr<DiscoveryAgent>> createBuiltinAgent(const AgentConfig &config, const QString &task,
                                                           BuiltinAgentOptions options = {});

} // namespace dreamrsi
