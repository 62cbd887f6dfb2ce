#pragma once

#include "policydeveloper.h"

#include "policy/scriptlimits.h"
#include "replay/replayworld.h"
#include "replay/worldmodel.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>

namespace dreamrsi {

class ProjectStore;

/// A stored world dreaming replays in: a finished iteration of the project.
struct DreamWorld
{
    IterationId iteration = 0;
    ReplayWorld world;               ///< results name the world by world.name
};

/// How one dream runs.
struct DreamSettings
{
    int versions = 4;                ///< M: version 0 (deployed) plus M − 1 new ones
    /// The replays run under the project's replay configuration (W, λ, β
    /// grid, K, the valuation, C and the imagination rule) as it stands when
    /// the dream starts; explicit values here override it for this dream only
    /// (DreamReport::config says what ran).
    ReplayConfigOverrides replay;
    /// Per script call; the address space and wall clock of each replay child.
    ScriptLimits limits{2000, qint64(4) << 30, 600000};
    quint64 seed = 0;                ///< seeds the developer's steps and, unless imagineSeed is set, the completions
    /// The seed of the imagined completions (docs/online.md#valuation); none:
    /// `seed`. The loops set it to S + 1000·repeat + iteration.
    std::optional<quint64> imagineSeed;
    /// Under the imagined valuation, value the deployed version and the
    /// leading candidate under a second completion seed too and propose the
    /// candidate only when its lead beats the noise (DreamReport::check).
    bool noiseCheck = true;
    /// Threads that draw the completions (0 = as many as the machine has);
    /// the completions do not depend on it.
    int imagineThreads = 0;
    /// Also value the deployed version and the proposal under the other
    /// valuation (the dialogs show both numbers); the counterfactual loop,
    /// which shows neither, turns it off.
    bool bothValuations = true;
    int traceEpisodes = 3;           ///< traced episodes shown to the developer
    QString program;                 ///< the dreamrsi binary for the child; empty = default
    /// The β the next version will be deployed at (the loop's β); none: the
    /// deployed version's defaultBeta, else 0.5. The built-in improver's
    /// random steps change only what acts at this β.
    std::optional<double> deployedBeta;
    /// Version 0 when it is not the project's deployed version: the policy
    /// `dreamrsi loop --policy` deploys until a version of its dreams is
    /// approved. None: the project's deployed version.
    std::optional<PolicyVersion> deployed;
    /// The oracle valuation, for studies over recorded worlds: the complete
    /// world behind each history world (same order and count as the dream's
    /// worlds). When given, versions are valued over these instead of the
    /// history or its completions (DreamReport::oracle).
    QList<ReplayWorld> oracleWorlds;
    /// Replay in this process (ReplayEngine, the script watchdog's time
    /// limit, no address-space limit) instead of a sandboxed child: for the
    /// counterfactual loop, whose many small dreams would spend most of their
    /// time starting children. Results are the same bit for bit.
    bool inProcess = false;
    /// The leading version must keep the floor version's hardest history
    /// world (FloorCheck) to be proposed.
    bool floorCheck = true;
    /// The version whose hardest world sets the floor: the counterfactual
    /// loop's starting version. None: the project's first approved version
    /// (a dream in memory: the deployed one).
    std::optional<PolicyVersion> floorVersion;
};

/// One version of a dream with its stored id and its standing.
struct DreamVersion
{
    int index = 0;                   ///< 0 = the deployed version
    DevelopedVersion developed;      ///< version (as stored), result, value, error
    QString developer;               ///< who wrote it ("deployed", "builtin-improver", a model)
    AgentUsage usage;                ///< what writing it cost
    /// Its value on the history as revealed and on the imagined completions
    /// (the dream's valuation decides which one `developed.value` is). Both
    /// are known for the deployed version and the proposal; each other
    /// version has the one of the valuation.
    std::optional<double> revealedValue;
    std::optional<double> imaginedValue;
    /// The candidates the developer replayed while writing this version (each
    /// with its place in DreamReport::candidates); empty for version 0 and for
    /// developers that do not replay candidates.
    QList<CandidateRecord> candidates;
};

/// Whether the leading candidate's lead over the deployed version beats the
/// noise of the completions (docs/online.md#a-proposal-must-beat-the-noise).
/// Both are valued again over C completions drawn with a second seed; the
/// candidate is proposed only when its lead under the dream's seed is larger
/// than the deployed version's seed-to-seed spread and it leads under the
/// second seed too.
struct ProposalCheck
{
    bool measured = false;           ///< the check ran (imagined valuation, a candidate led)
    QString candidate;               ///< the version that led
    QString deployed;                ///< the deployed version's name
    double lead = 0.0;               ///< candidate − deployed under the dream's seed
    std::optional<double> secondLead; ///< the same under the second seed (none: not valued)
    std::optional<double> noise;     ///< |deployed under the dream's seed − under the second seed|
    quint64 secondSeed = 0;
    bool passed = true;              ///< the candidate is proposed
    QString verdict;                 ///< the outcome in words

    /// The rule: the lead beats the deployed version's seed-to-seed spread
    /// and holds under the second seed.
    static bool beatsNoise(double lead, double noise, double secondLead) { return lead > noise && secondLead > 0.0; }
};

/// Whether the leading version keeps the hardest history world
/// (docs/online.md#a-proposal-must-keep-the-hardest-world): its attainment
/// at the deployed β on the history world where it does worst (each world's
/// completions averaged) must be at least what the floor version reaches on
/// its own hardest world, valued over the same worlds. A leader below the
/// floor gives way to the best-valued version that keeps it and leads the
/// deployed one (the deployed one when none does); the noise check then
/// judges that one. A deployed version below the floor is repaired (`repair`).
struct FloorCheck
{
    bool measured = false;           ///< the check ran (some version scored)
    QString floorVersion;            ///< whose hardest world sets the floor
    double beta = 0.5;               ///< the deployed β the attainments are taken at
    std::optional<double> floor;     ///< the floor version's worst-world attainment (none: not valued)
    QString candidate;               ///< the version that led by mean value (the deployed one, when none led it)
    std::optional<double> candidateWorst; ///< its worst-world attainment
    std::optional<double> deployedWorst;  ///< the deployed version's
    QStringList refused;             ///< versions passed over for falling below the floor, best value first
    bool passed = true;              ///< the leader is what the check chose
    QString chosen;                  ///< the version the check chose other than the deployed one (empty: the deployed)
    /// The deployed version itself falls below the floor: the best-valued
    /// version that keeps it is proposed in its place, without the noise
    /// check (which measures a lead over the deployed version, not the
    /// reason here); when no dreamed version keeps it, the floor version
    /// itself joins DreamReport::versions (developer "floor") and is proposed.
    bool repair = false;
    QString verdict;                 ///< the outcome in words

    /// The attainment at the β grid's point nearest `beta` on the world of
    /// `result` where it is lowest; C completions of one history world
    /// (ReplayResult::completions, world-major) count as one world, their
    /// attainments averaged. None when no world is scorable.
    static std::optional<double> worstAttainment(const ReplayResult &result, double beta);
    /// The version to propose among `versions` (index 0 the deployed one)
    /// when the floor is `floor`: while the deployed version keeps it, the
    /// best mean value among the versions that lead the deployed one and
    /// keep the floor, else 0; when the deployed version falls below it
    /// (`repair`), the best mean value among the others that keep it, else
    /// 0. `refused` gets the versions passed over, best first.
    static int choose(const QList<DreamVersion> &versions, double floor, double beta, QStringList *refused,
                      bool *repair = nullptr);
};

/// What a dream produced.
struct DreamReport
{
    QList<DreamVersion> versions;    ///< in order; version 0 first
    ReplayConfig config;             ///< the replay configuration the versions were replayed under
    bool overridden = false;         ///< `config` is not the project's (explicit overrides)
    /// Index of the proposal: the best mean value among the versions that
    /// keep the floor (`floor`) when it beats the noise (`check`), else 0
    /// (the deployed version: nothing better); -1 when no version scored.
    int proposed = -1;
    ProposalCheck check;
    FloorCheck floor;
    quint64 imagineSeed = 0;         ///< the seed of the completions (imagined valuation)
    QJsonObject model;               ///< the fitted world model (WorldModel::toJson); empty when none was fitted
    /// Every candidate of the dream, in order (docs/online.md#dreams-you-can-read).
    QList<CandidateRecord> candidates;
    /// Candidates screened out before a full replay: at the deployed β they
    /// did what the start or an earlier candidate did (DreamMemory::screened).
    int screened = 0;
    bool oracle = false;             ///< valued over the complete worlds (DreamSettings::oracleWorlds)
    double deployedBeta = 0.5;       ///< the β the improver's steps were judged at
    bool cancelled = false;
    QString error;                   ///< a problem that stopped the dream (store, no worlds); empty otherwise

    const DreamVersion *proposal() const { return proposed >= 0 ? &versions.at(proposed) : nullptr; }
};

/// Dreaming (docs/online.md#dreaming): from the deployed version, asks a policy
/// developer for M − 1 new versions, one after the other; stores each
/// (origin Agent, parent, prompt, response) the moment it exists, replays it
/// on every given world over the β grid in the sandboxed child process
/// (ReplayProcess) and stores the results. A version that fails (no script,
/// syntax error, illegal batch, time or memory limit) is stored with its
/// error — as an error result per world and β — and shown to the next step.
/// The version with the best mean value is proposed; nothing is approved.
///
/// run() blocks and must not run on the GUI thread (it spins local event
/// loops for the child processes): the GUI calls it on a worker thread and
/// gets the signals queued. cancel() is thread-safe; a cancelled dream
/// keeps what was stored and proposes among the versions it finished.
class Dreamer : public QObject
{
    Q_OBJECT
public:
    Dreamer(ProjectStore *store, std::shared_ptr<PolicyDeveloper> developer, QObject *parent = nullptr);

    /// Runs the dream under the project's replay configuration (read from the
    /// store when it starts) with `settings.replay` applied.
    DreamReport run(const QList<DreamWorld> &worlds, const DreamSettings &settings);
    /// A dream with no project (the Dreamer may be made with a null store):
    /// version 0 is `deployed`, the new versions live in memory only, named
    /// v<firstNumber>, v<firstNumber + 1>, … and given those numbers as ids;
    /// nothing is stored. Used by the counterfactual loop.
    DreamReport runInMemory(const QList<DreamWorld> &worlds, const DreamSettings &settings, const PolicyVersion &deployed,
                            int firstNumber);
    void cancel();
    bool isCancelled() const { return m_cancel.load(); }

    /// The version the next round deploys: the newest approval's version,
    /// else the stored "builtin:portfolio" (added when missing). Blocking.
    static StoreResult<PolicyVersion> deployedVersion(ProjectStore &store);
    /// The finished iterations of the open project as worlds, named
    /// "iteration N" (N = the tree's iteration number, else its id). Blocking.
    /// Approximate worlds (imported runs with forks or orphans) only when
    /// `includeApproximate`; `approximateLeftOut` counts those left out.
    static StoreResult<QList<DreamWorld>> finishedWorlds(ProjectStore &store, bool includeApproximate = false,
                                                         int *approximateLeftOut = nullptr);
    /// The best mean value among `versions` (ties: the earliest); -1 when none scored.
    static int bestByMeanValue(const QList<DreamVersion> &versions);

signals:
    /// A line for a log or stderr.
    void message(const QString &text);
    /// Version `index` (of `total`) is being written or replayed.
    void stepStarted(int index, int total);
    /// Version `index` is stored and replayed (or failed).
    void versionReady(const dreamrsi::DreamVersion &version);
    /// Episodes of the current replay done / total.
    void replayProgress(int done, int total);

private:
    /// The dream itself; `persist` stores versions and results in m_store.
    DreamReport dream(const QList<DreamWorld> &worlds, const DreamSettings &settings, const PolicyVersion &deployed,
                      int firstNumber, bool persist);

    std::shared_ptr<PolicyDeveloper> m_developer;
    ProjectStore *m_store;
    std::atomic_bool m_cancel{false};
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::DreamVersion)
Q_DECLARE_METATYPE(dreamrsi::DreamReport)
