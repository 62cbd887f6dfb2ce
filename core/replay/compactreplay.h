#pragma once

#include "replayengine.h"

#include "model/compacttree.h"

#include <functional>
#include <vector>

namespace dreamrsi {

/// Replay of the built-in policies on CompactTree worlds: the path of
/// `dreamrsi replay --policy builtin:NAME` when no trace is asked for.
///
/// It gives exactly what ReplayEngine gives for the same worlds, options and
/// policy (tst_compactreplay compares the two byte for byte): the built-in
/// policies' rules are shared with their Policy classes (BuiltinRules), and
/// the episode loop follows ReplayEngine::runEpisode step for step. What it
/// saves is the general engine's per-cell work: ids, metadata and
/// observations as Qt strings and lists, id lookups, and the tree's own
/// building. Built-in policies have no planGrid, so no grid restriction
/// applies. Episodes carry no anytime curve and no `revealed` list: the reveal
/// order comes apart, as cell indices.
namespace CompactReplay {

/// True when `spec` is a built-in policy this path replays.
bool handles(const PolicySpec &spec);

/// One world's sweep over options.betas. revealed[i] gets episode i's reveal
/// order as indices into world.cells.
SweepResult runSweep(const CompactTree &world, const QString &name, const PolicySpec &spec,
                     const ReplayOptions &options, std::vector<std::vector<int>> *revealed);

/// Called with each world's sweep, the world and its episodes' reveal orders
/// as indices into world.cells (valid during the call only), on the thread
/// that replayed it.
using SweepDone = std::function<void(qsizetype index, const SweepResult &sweep, const CompactTree &world,
                                     const std::vector<std::vector<int>> &revealed)>;

/// ReplayEngine::runFiles() for a spec that handles() accepts: readFiles(),
/// then runTrees() over them; the result, or the first read failure in the
/// order of `paths`, is the one ReplayEngine::runFiles() gives, with the
/// episodes' `revealed` left empty.
Result<ReplayResult> runFiles(const QStringList &paths, const PolicySpec &spec, const ReplayOptions &options,
                              const SweepDone &done = {}, const ReplayEngine::Progress &progress = {});

/// The compact form of every file (TreeJson::readCompactFile, with the cache
/// when options.worldCache), on up to options.threads threads (each calls
/// options.threadStart first), in the order of `paths`. Read once, each
/// world then serves both the question whether it is approximate and its
/// replay (`dreamrsi replay` reads every file once).
std::vector<Result<CompactTree>> readFiles(const QStringList &paths, const ReplayOptions &options);

/// Every world of `worlds` (named names[i]) replayed over options.betas on up
/// to options.threads threads, each handed to `done` on the thread that
/// replayed it; the same result as runFiles() over the files they were read from.
ReplayResult runTrees(const std::vector<const CompactTree *> &worlds, const QStringList &names, const PolicySpec &spec,
                      const ReplayOptions &options, const SweepDone &done = {},
                      const ReplayEngine::Progress &progress = {});

} // namespace CompactReplay

} // namespace dreamrsi
