#pragma once

#include "replayworld.h"

#include "base/result.h"
#include "model/discoverytree.h"
#include "model/imaginationrule.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <vector>

namespace dreamrsi {

/// The imagined-worlds valuation (docs/online.md#valuation): a model of how
/// cells score, fitted once per dream and task on every revealed cell of the
/// history worlds of that task, and completions of each history world drawn
/// from its task's model. Revealed cells are kept
/// exactly; every other (branch, attempt) of the world's grid is imagined.
///
/// Everything here is deterministic for a seed: a completion's draws come
/// from its own SplitMix64 stream (seeded from the dream's seed, the world's
/// place j in the history and the completion's number k), so completions are
/// the same whatever the number of threads that draw them.

/// How the model is fitted and completions drawn.
struct ImaginationOptions
{
    int minSamples = 3;      ///< NMIN: a stratum with fewer values falls back to a wider one
    bool cap = true;         ///< clamp imagined scores to the best score the history revealed
    ImaginationRule rule = ImaginationRule::Capped;
    /// The task's directions d0 … dn−1: an unrevealed branch b explores
    /// direction d[b mod n]. Empty: only revealed cells' `direction:` tags
    /// say what a branch explores, and other branches belong to the pooled
    /// stratum only.
    QStringList directions;
};

/// The fitted model (docs/imagination.md#the-model). Lists keep the order in
/// which the walk over the history filled them: the draws depend on it.
class WorldModel
{
public:
    /// The pooled stratum's name.
    static QString pooled() { return QStringLiteral("*"); }

    /// Fits the model on `history` (j ascending, as given).
    static WorldModel fit(const QList<const DiscoveryTree *> &history, const ImaginationOptions &options);

    /// Probability that an imagined attempt at depth `attempt` fails.
    double failureRate(int attempt) const;
    /// The values a branch's first ok score is drawn from.
    const QList<double> &firstScores(const QString &tag) const;
    /// The values a gain over the branch's best is drawn from at `attempt`.
    const QList<double> &gains(const QString &tag, int attempt) const;
    /// The largest ok score the history revealed (none when it has none, or
    /// the cap is off).
    std::optional<double> cap() const { return m_cap; }
    const ImaginationOptions &options() const { return m_options; }

    /// The strata with samples ("*" first, then tags in byte order).
    QStringList strata() const;

    /// Gains the stratum `tag` holds at depth `attempt` (the pool for an
    /// empty tag or "*").
    int gainCount(const QString &tag, int attempt) const;
    /// First-attempt scores the stratum `tag` holds (the pool for an empty tag or "*").
    int firstCount(const QString &tag) const;
    /// A depth is *blind* for a branch of `tag` when neither the tag's
    /// stratum nor the pool holds NMIN gains at `attempt`: a draw there falls
    /// back to another depth, so the model knows nothing of that depth.
    bool depthBlind(const QString &tag, int attempt) const;
    /// A first attempt of `tag` is blind when its stratum holds fewer than
    /// NMIN first scores (the draw falls back to the pool); for an untagged
    /// branch, when the pool does.
    bool firstBlind(const QString &tag) const;
    /// The largest gain one attempt made over its branch's best anywhere in
    /// the history (0 when none was positive): the widened rule's headroom.
    double largestGain() const { return m_largestGain; }
    /// The uncertain rule's prior width S: twice the sample standard
    /// deviation of the pooled first-attempt scores (0 with fewer than two).
    double priorWidth() const { return m_priorWidth; }
    /// The deepest attempt at which some branch of the history gained over
    /// its best (0 when none did): where the anchored rule's window starts.
    int deepestGain() const { return m_deepestGain; }
    /// Whether a blind depth `attempt` is drawn from the wide prior: always
    /// under the uncertain rule, within the window under the anchored one.
    bool priorAt(int attempt) const;
    /// The pool's own gains at depth `attempt` (fewer than NMIN where the
    /// depth is blind; empty when none).
    const QList<double> &blindGains(int attempt) const;

    /// What the model holds, stratum by stratum: first-attempt scores
    /// (attempt −1) and gains at every depth 1 … maxAttempt, each with its
    /// count and whether it is blind.
    struct Evidence
    {
        QString stratum;
        int attempt = -1; ///< −1: first attempts
        int count = 0;
        bool blind = false;
    };
    QList<Evidence> evidence(int maxAttempt) const;

    /// The model as JSON: per stratum its first-attempt scores and gains by
    /// depth with their counts, the pooled failure counts by depth, the cap.
    QJsonObject toJson() const;

private:
    struct Trials
    {
        int trials = 0;
        int failures = 0;
        double rate() const { return trials > 0 ? double(failures) / trials : 0.0; }
    };
    struct Stratum
    {
        QList<double> first;
        QMap<int, QList<double>> gains; ///< by attempt
    };

    /// The stratum `name`, an empty one when the model has none of that name.
    const Stratum &stratum(const QString &name) const;

    ImaginationOptions m_options;
    QMap<int, Trials> m_failByDepth;  ///< F[a]
    Trials m_failDeep;                ///< F[*]: every a ≥ 1
    QMap<QString, Stratum> m_strata;  ///< "*" and the tags
    QList<double> m_allGains;         ///< every pooled gain, in depth order (the last fallback)
    std::optional<double> m_cap;
    double m_largestGain = 0.0;
    double m_priorWidth = 0.0;
    int m_deepestGain = 0;
};

/// The directions of a task by its name (a built-in task or a task folder),
/// empty when it has none or is unknown. Resolving a task is above this room
/// (core/project/valuationworlds.h gives the one every caller uses).
using TaskDirections = std::function<QStringList(const QString &task)>;

/// One model per task (docs/online.md#valuation). Scores of different tasks
/// live on different scales (a packing's sum of radii, an autocorrelation
/// bound), so a model fitted over both would draw one task's scores into the
/// other's worlds and cap them at the other's best. The history worlds are
/// grouped by their tree's `task` (worlds without a task form one group of
/// their own) and each group gets its own model, cap included, fitted over
/// its worlds only. A world keeps its place j among all history worlds, so
/// the completion seeds do not depend on the grouping; a history of one task
/// gives exactly the one model it always had.
class WorldModels
{
public:
    struct Group
    {
        std::optional<QString> task; ///< none: the worlds whose tree names no task
        QList<int> worlds;           ///< their places j in the history, ascending
        WorldModel model;
    };

    /// Groups `history` (j ascending, as given) by task, in the order each
    /// task first appears, and fits one model per group. `options.directions`,
    /// when given, serve every group; else each group takes its own task's
    /// (`directionsOf`), and the group without a task none.
    static WorldModels fit(const QList<const DiscoveryTree *> &history, const ImaginationOptions &options,
                           const TaskDirections &directionsOf = {});

    const QList<Group> &groups() const { return m_groups; }
    /// The group of history world j (-1 when j is not one of the history's).
    int groupOf(int world) const { return world >= 0 && world < m_groupOf.size() ? m_groupOf.at(world) : -1; }
    /// The model that completes history world j (an empty model for an unknown j).
    const WorldModel &of(int world) const;

    /// `{"models": [{task, worlds: [j…], model}]}`, a group's model as
    /// WorldModel::toJson; with a single group its model's fields are also at
    /// the top level, as before models were fitted per task.
    QJsonObject toJson() const;

private:
    QList<Group> m_groups;
    QList<int> m_groupOf; ///< by j
};

namespace Imagination {

using TaskDirections = dreamrsi::TaskDirections;

/// The tag that says which direction branch `branchId` of `world` explores:
/// its revealed cells' `direction:` tag; else the direction the world's
/// `branch_directions` names for it (a recorded world's unopened branches,
/// docs/tree-format.md); else `direction:` + directions[b mod n] when
/// directions are known; else empty (the pooled stratum only).
QString branchTag(const DiscoveryTree &world, int branchId, const QStringList &directions);

/// The seed of completion k of history world j for a dream seeded `dreamSeed`.
quint64 completionSeed(quint64 dreamSeed, int world, int completion);

/// Completion `completion` of history world `world` (its place j in the
/// history). Imagined cells carry `"imagined": true` in their payload and
/// seqs from 1 000 000 on. Fails only when the completed tree is not valid.
Result<DiscoveryTree> complete(const DiscoveryTree &tree, const WorldModel &model, quint64 dreamSeed, int world,
                               int completion);
/// The same with the model of the world's own task.
Result<DiscoveryTree> complete(const DiscoveryTree &tree, const WorldModels &models, quint64 dreamSeed, int world,
                               int completion);

/// True when `cell` was imagined.
bool isImagined(const Cell &cell);

/// The number of cells of any completion of `tree`: its revealed cells and
/// every other (branch, attempt) of its grid.
int completedCellCount(const DiscoveryTree &tree);

/// "<world> · imagined k": how results name completion k of a world.
QString completionName(const QString &world, int completion);

/// Completions k = 0 … count−1 of every world of `history`, world-major
/// (index j·count + k), named "<name> · imagined k", each drawn from the
/// model of its world's task, on up to `threads` threads (0 = as many as the
/// machine has). The result does not depend on `threads`.
Result<QList<ReplayWorld>> completeAll(const QList<ReplayWorld> &history, const WorldModels &models, quint64 dreamSeed,
                                       int count, int threads = 0);

/// The world a completion of completeAll() came from and its k.
struct CompletionPlace
{
    int world = 0;
    int completion = 0;
};
inline CompletionPlace placeOf(qsizetype index, int count) { return {int(index / count), int(index % count)}; }

/// The imagined history of a dream: one model per task, fitted once on every
/// revealed cell of the history worlds of that task, and C completions of
/// each world drawn from its task's model.
struct ImaginedHistory
{
    WorldModels model;
    QList<ReplayWorld> completions; ///< world-major: completion k of world j at j·C + k
    int count = 0;                  ///< C
    quint64 seed = 0;               ///< the dream's seed the completions were drawn with
};

/// The models imagine() fits: WorldModels::fit over the trees of `history`
/// (a world without a tree has no model).
WorldModels fitModels(const QList<ReplayWorld> &history, const ImaginationOptions &options,
                      const TaskDirections &directionsOf = {});

/// Fits one model per task on `history` (fitModels) and draws `count`
/// completions of each world from its task's model. When
/// `options.directions` is empty, each task's model takes the directions
/// `directionsOf` knows for it; none known: only the worlds' own
/// `direction:` tags. Deterministic for a seed, whatever `threads`.
Result<ImaginedHistory> imagine(const QList<ReplayWorld> &history, quint64 seed, int count, ImaginationOptions options,
                                int threads = 0, const TaskDirections &directionsOf = {});

} // namespace Imagination

using Imagination::ImaginedHistory;

/// What the world model and the probes (probes.h) read of a cell the same way.
namespace WorldCells {

/// The tag prefix that names a cell's direction ("direction:d3").
const QString &directionPrefix();
/// A cell's score when its fail class is "ok" and its score a finite number.
std::optional<double> okScore(const Cell &cell);
/// The grid of a world, or the live round's fallback when it records none.
GridShape gridOf(const DiscoveryTree &tree);

} // namespace WorldCells

} // namespace dreamrsi
