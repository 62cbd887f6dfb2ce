#pragma once

// The counterfactual loop: the recursive loop of round → dream → approve with
// recorded worlds standing in for the discovery agent, so Dream-RSI and fixed
// exploration can be compared exactly, cheaply and over many seeds
// (docs/online.md, "The counterfactual loop").

#include "loop/dream/dreamer.h"
#include "loop/dream/policydeveloper.h"

#include "model/discoverytree.h"
#include "policy/scriptlimits.h"
#include "replay/probes.h"
#include "replay/replayworld.h"
#include "replay/worldmodel.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <optional>

namespace dreamrsi {

/// Which arms a counterfactual run holds.
enum class CounterfactualArm {
    Dream,   ///< Dream-RSI with the paper's approval rule: the best mean value
    Guarded, ///< Dream-RSI whose proposals must not lose final quality on the history
    Fixed,   ///< fixed exploration: the starting policy throughout
    /// Fixed exploration followed by the probes of `CounterfactualSettings::probe`
    /// after each deployment: the probes' own gain, apart from what dreams learn.
    FixedProbe,
};

/// "dream", "dream_guarded", "fixed", "fixed_probe".
QString counterfactualArmName(CounterfactualArm arm);

/// How a counterfactual loop runs.
struct CounterfactualSettings
{
    QStringList worldPaths;          ///< the worlds in the given order (named by these paths)
    /// Or worlds already in memory (a project's iterations), named by their
    /// names; used instead of worldPaths when not empty.
    QList<ReplayWorld> worlds;
    int iterations = 1;              ///< T ≤ worldPaths.size()
    int versions = 4;                ///< M per dream
    QString policyArgument = QStringLiteral("builtin:portfolio"); ///< the starting policy: builtin:NAME or a .js path
    int workers = 10;                ///< W of the deployments and of the dreams' replays
    std::optional<int> maxRounds;    ///< K of the deployments and of the dreams' replays
    std::optional<double> beta;      ///< β of every deployment; none = the policy's defaultBeta, else 0.5
    quint64 seed = 0;                ///< S: repeat r > 0 shuffles the worlds with S + r; seeds the developer
    /// Math.random seed of every episode (as `dreamrsi replay --seed`); none
    /// = the replay command's default.
    std::optional<quint32> episodeSeed;
    int repeats = 1;                 ///< R
    QList<CounterfactualArm> arms{CounterfactualArm::Dream};
    double lambda = 0.1;             ///< of the dreams
    QList<double> betas{0.0, 0.25, 0.5, 0.75, 1.0}; ///< the dreams' β grid
    /// What the dreams value versions over (docs/online.md#valuation) and
    /// the completions per world; the defaults are a new project's.
    Valuation valuation = Valuation::Imagined;
    int completions = 8;
    /// How the imagined completions are drawn (docs/online.md#imagination-rules).
    ImaginationRule rule = ImaginationRule::Capped;
    /// Probe calls after each deployment of the dreaming arms and of the
    /// fixed_probe arm (docs/online.md#probes); the fixed arm never probes.
    ProbeSetting probe = ProbeSetting::automatic();
    /// The oracle arm of a study: the dreams value versions over the complete
    /// recorded worlds behind the history (known only here, where the worlds
    /// are recorded), so a shortfall can be told apart: the valuation's or
    /// the policy family's. Overrides `valuation`.
    bool oracle = false;
    /// The dreams' floor check (docs/online.md#a-proposal-must-keep-the-hardest-world):
    /// a proposal must keep the starting version's hardest history world.
    bool floor = true;
    /// The limits every version's code runs under (the dreams' replays and
    /// the deployments alike; all in this process, so `callMs` is the one
    /// that acts).
    ScriptLimits limits;
    /// Tolerance of the guard: a proposal may lose at most this much mean
    /// attainment at the deployment β against the deployed version.
    double guardTolerance = 1e-9;

    /// Where every study of a project starts (Simulate the Loop and `loop
    /// --worlds … --project` alike; docs/online.md#the-counterfactual-loop):
    /// the project's replay configuration gives W, K, λ, the β grid, the
    /// valuation and C; without one (no project, or the command without
    /// --project) a new project's configuration does, which is also what a
    /// default-constructed CounterfactualSettings holds.
    static CounterfactualSettings forProject(const std::optional<ReplayConfig> &config);
    /// Sets W, K, λ, the β grid, the valuation and C from `config`.
    void setReplayConfig(const ReplayConfig &config);
    /// The replay configuration the dreams run under (W, K, λ, β grid, valuation, C).
    ReplayConfig replayConfig() const;
};

/// What the dreams of `settings` value versions over: "oracle", "imagined"
/// or "revealed".
QString counterfactualValuationName(const CounterfactualSettings &settings);

/// One iteration of one arm and repeat.
struct CounterfactualIteration
{
    int iteration = 0;               ///< 1 … T
    QString world;                   ///< the path as given
    QString policyVersion;           ///< the deployed version's name
    double beta = 0.5;               ///< the β it was deployed at
    int calls = 0;                   ///< cells the deployment revealed, its probes included
    int probeCalls = 0;              ///< of which probes (docs/online.md#probes)
    QStringList probes;              ///< "b3a4: depth 4 of d3 had 1 value", in the order made
    int rounds = 0;
    std::optional<double> bestScore; ///< best raw score revealed on this world; none when no scored cell was revealed
    std::optional<double> attainment; ///< clip(best / S_world, 0, 1) over every call, probes included; none for an unscorable world
    qint64 cumulativeCalls = 0;
    QString error;                   ///< the episode's policy error, if any
    /// The dream after this iteration (none after the last and in the fixed arm).
    std::optional<QString> proposed;  ///< the proposal of the plain rule
    std::optional<QString> approved;  ///< the version deployed next
    QString approvalNote;             ///< why (the guard's verdict, a failed dream)
    /// The dream's candidates: replayed, new behaviours, changing nothing
    /// at the deployed β (zero without a dream or a developer that replays candidates).
    int candidates = 0;
    int distinctCandidates = 0;
    int inertCandidates = 0;
};

/// One arm of one repeat.
struct CounterfactualRun
{
    CounterfactualArm arm = CounterfactualArm::Dream;
    int repeat = 0;
    QList<CounterfactualIteration> iterations;
};

/// What a counterfactual loop produced.
struct CounterfactualReport
{
    QList<CounterfactualRun> runs;
    bool stopped = false;
    QString error;                   ///< what stopped it early; empty when it ran to the end
};

/// Runs the counterfactual loop. For each repeat r (0 … R−1) the worlds are
/// taken in order (r = 0) or in the shuffle of worldOrder(); iteration t
/// deploys the current policy on world t as exactly one replay episode
/// (W, K, β, the episode seed), only the cells that episode revealed become
/// the iteration's tree, and (for the Dream arms, except after the last
/// iteration) a dream of M versions in memory over the revealed trees so
/// far picks the next policy. Nothing is stored.
///
/// run() blocks (dreams spin local event loops only for HTTP developers):
/// call it from the CLI or a worker thread. stop() is thread-safe.
class CounterfactualLoop : public QObject
{
    Q_OBJECT
public:
    explicit CounterfactualLoop(std::shared_ptr<PolicyDeveloper> developer, QObject *parent = nullptr);

    CounterfactualReport run(const CounterfactualSettings &settings);
    void stop();

    /// The indices of the worlds repeat `repeat` takes, in order: 0 … n−1
    /// for repeat 0; else a Fisher–Yates shuffle driven by splitmix64 seeded
    /// with seed + repeat (for i = n−1 … 1: swap i with next() mod (i + 1)).
    static QList<int> worldOrder(int n, int repeat, quint64 seed);
    /// The tree of the cells of `world` whose ids are in `revealed`, in the
    /// world's order, with the world's top-level fields: what the loop adds
    /// to the history. A prefix of every branch, so always a valid tree.
    /// Its top-level `branch_directions` names the direction of every branch
    /// of `world` that `revealed` leaves unopened (from the branch's
    /// `direction:` tag), so imagination completes an unopened root from its
    /// own direction as a live round does from the task. Cells whose ids are
    /// keys of `probes` carry the `probe` tag and their reason.
    static DiscoveryTree revealedTree(const DiscoveryTree &world, const QStringList &revealed,
                                      const QHash<QString, QString> &probes = {});
    /// `{runs: [...], summary: {...}}` (docs/online.md).
    static QJsonObject toJson(const CounterfactualReport &report, const CounterfactualSettings &settings);

signals:
    void message(const QString &line);
    /// Iterations done of all arms and repeats, of `total`.
    void progress(int done, int total);
    /// A dream is about to run over `history` (emitted on the running
    /// thread; connect directly): what the developer and the replays see.
    void dreaming(int repeat, int iteration, const QList<dreamrsi::DreamWorld> &history);

private:
    struct ArmState;
    /// The checks of `settings` over `n` worlds, then the starting version
    /// (compiled once to see that it runs).
    Result<PolicyVersion> startingPolicy(const CounterfactualSettings &settings, int n) const;
    /// The worlds in memory, or read from their paths.
    Result<QList<std::shared_ptr<const DiscoveryTree>>> loadWorlds(const CounterfactualSettings &settings);
    /// One arm of one repeat (`run`): per iteration the deployment, then,
    /// in the dreaming arms, the dream. False when stopped.
    bool runArm(const CounterfactualSettings &settings, const PolicyVersion &start, const QStringList &names,
                const QList<std::shared_ptr<const DiscoveryTree>> &worlds, const QList<int> &order, CounterfactualRun *run,
                int *done, int total);
    /// The iteration's line (message()).
    void announce(const CounterfactualSettings &settings, CounterfactualArm arm, int r, const PolicyVersion &current,
                  const CounterfactualIteration &it);
    /// The dream after iteration `it` of repeat `r` and the version it
    /// approves (the guard's choice in the guarded arm). False when stopped.
    bool dreamAfter(const CounterfactualSettings &settings, CounterfactualArm arm, int r, CounterfactualIteration *it,
                    ArmState *state);

    std::shared_ptr<PolicyDeveloper> m_developer;
    std::atomic_bool m_stop{false};
    std::atomic<Dreamer *> m_dreamer{nullptr};
};

} // namespace dreamrsi
