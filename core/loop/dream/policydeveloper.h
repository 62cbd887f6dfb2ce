#pragma once

// The policy-development step of dreaming (docs/online.md#dreaming): given a version's
// code and how it replayed, write the next version. Two implementations
// share this interface: an agent that asks a chat model
// (AgentPolicyDeveloper) and the offline built-in improver (PolicyImprover),
// so the dreamer does not care which one it drives.

#include "historystats.h"

#include "agent/agent.h"
#include "replay/episoderesult.h"
#include "replay/replayresult.h"
#include "store/storetypes.h"

#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

namespace dreamrsi {

/// One version as the developer sees it: its code, its replay over the
/// stored worlds (absent when it never replayed) and why it failed.
struct DevelopedVersion
{
    PolicyVersion version;
    ReplayResultPtr result;          ///< null when the version could not be replayed at all
    std::optional<double> value;     ///< mean value over the scorable worlds; none when it failed
    QString error;                   ///< development or replay error; empty when clean
};

/// One traced episode shown to the developer.
struct TracedEpisode
{
    QString world;
    EpisodeResult episode;           ///< with its round trace
};

/// What a candidate script scored when replayed on the stored worlds.
struct CandidateScore
{
    std::optional<double> value;     ///< mean value; none on an error
    QString error;
    bool cancelled = false;
    /// Fingerprints of what the script did (docs/online.md#no-wasted-candidates):
    /// a hash of the batches of every episode of the replay (every world and
    /// β), and of the episodes at the deployed β only. Two scripts with the
    /// same `behaviour` are the same policy on these worlds, whatever their
    /// code; none when the replay gave no episodes to hash.
    std::optional<quint64> behaviour;
    std::optional<quint64> deployedBehaviour;
};

/// One tunable a candidate changed against its parent.
struct TunableChange
{
    QString name;
    double from = 0.0;
    double to = 0.0;
    bool integer = false;
};

/// One candidate a developer replayed while writing a version: what the
/// Dream dialog and the dream JSON list.
struct CandidateRecord
{
    int index = -1;                  ///< its place in the dream's candidate list
    QString parent;                  ///< the version it was derived from
    QString code;                    ///< the script replayed (not in the JSON)
    QString kind;                    ///< "learned", "proposal", "random"
    QString why;                     ///< the proposal's reason, or the random step
    QList<TunableChange> changes;    ///< tunables changed against the parent (learned tables aside)
    std::optional<double> value;     ///< mean value; none on an error
    QString error;
    /// It repeats a behaviour already valued in this dream (an earlier
    /// candidate's, or a version's): it does not count and is replaced.
    bool duplicate = false;
    /// The index (in the dream's candidate list) of the earlier candidate it
    /// repeats; -1 when it is new or repeats a version.
    int duplicateOf = -1;
    /// It changes nothing at the deployed β (its episodes there are the
    /// parent's): it does not count as a candidate and is replaced.
    bool inertAtDeployedBeta = false;
    bool kept = false;               ///< it became the version
};

/// How many of a dream's candidates were new behaviours, repeats of one
/// already valued, or changed nothing at the deployed β: the one count the
/// dream JSON, the Dream dialog and the counterfactual loop give.
struct CandidateCounts
{
    int total = 0;
    int duplicates = 0;
    int inert = 0; ///< inert at the deployed β
    int distinct() const { return total - duplicates; }
    static CandidateCounts of(const QList<CandidateRecord> &candidates)
    {
        CandidateCounts n;
        n.total = int(candidates.size());
        for (const CandidateRecord &c : candidates) {
            n.duplicates += c.duplicate ? 1 : 0;
            n.inert += c.inertAtDeployedBeta ? 1 : 0;
        }
        return n;
    }
};

/// What a dream remembers from step to step, so a behaviour is valued once
/// and a proposal that lost is not offered again (the dreamer owns one per
/// dream and hands it to every step).
struct DreamMemory
{
    QList<CandidateRecord> candidates; ///< every candidate of the dream, in order
    QHash<quint64, int> behaviours;  ///< behaviour → index of its first candidate (-1: a version's)
    QSet<QString> codes;             ///< every script replayed in this dream
    QSet<QString> proposalsOffered;  ///< proposal kinds offered in this dream
    QSet<QString> inertTunables;     ///< tunables seen to change nothing at the deployed β
    QHash<QString, QStringList> actingByStart; ///< start script → its tunables that act at the deployed β
    /// Behaviours at the deployed β on the cheap probe (DevelopmentContext::
    /// deployedBehaviour) of the start scripts and of every candidate
    /// replayed: a new candidate that repeats one of them is screened out
    /// before its full replay.
    QSet<quint64> probed;
    int screened = 0;                ///< candidates screened out that way (never replayed in full)
};

/// Everything one development step gets.
struct DevelopmentContext
{
    int step = 0;                    ///< m: the new version is m + 1 of this dream
    DevelopedVersion current;        ///< version m (code, results, value or error)
    QList<TracedEpisode> traces;     ///< a few episodes of version m, worst worlds first
    QList<DevelopedVersion> history; ///< versions 0 … m-1 of this dream, oldest first
    int workers = 10;                ///< W of the replays
    double lambda = 0.1;
    QList<double> betas;
    int worldCount = 0;
    quint64 seed = 0;                ///< per-step seed (deterministic developers use it)
    /// Per-direction statistics of the stored worlds (what paid, where gains
    /// arrived); empty when the dreamer has none to give.
    HistoryStats worldStats;
    /// The β the next version will be deployed at (the round's or the
    /// loop's β, else the deployed script's defaultBeta, else 0.5).
    double deployedBeta = 0.5;
    /// The dream's memory of candidates (null: the step keeps its own).
    DreamMemory *memory = nullptr;
    /// The behaviour at the deployed β of a script, from a cheap replay (the
    /// first completion of each world, that β only): which tunables act.
    /// Null: every tunable is taken to act.
    std::function<std::optional<quint64>(const QString &code, const std::atomic_bool &cancel)> deployedBehaviour;
    /// Replays a candidate script on the same worlds with the same settings
    /// (the dreamer supplies it: the sandboxed child process). Blocking.
    std::function<CandidateScore(const QString &code, const std::atomic_bool &cancel)> evaluate;
};

/// What one development step returns. A failed step (`ok` false) still
/// becomes a stored version carrying the error, so the next step sees it.
struct DevelopmentOutcome
{
    bool ok = false;
    bool cancelled = false;
    QString error;                   ///< why there is no script (no code block, HTTP failure, …)
    QString code;                    ///< the new script (the last fenced code block of an answer)
    QString prompt;                  ///< what was asked (stored with the version)
    QString response;                ///< the raw answer or the improver's report
    PolicyOrigin origin = PolicyOrigin::Agent;
    QString model;                   ///< who wrote it: "builtin-improver", a model name
    /// Index into history + current (0 … step) of the version the script
    /// was derived from; -1 = the current one.
    int baseIndex = -1;
    AgentUsage usage;
    /// The candidates this step replayed (the built-in improver), in order;
    /// indices into the dream's candidate list (DreamMemory::candidates).
    QList<int> candidates;
};

/// Writes version m + 1 from version m and the feedback so far.
class PolicyDeveloper
{
public:
    virtual ~PolicyDeveloper();
    /// "builtin-improver", or the chat model's kind ("openai", …).
    virtual QString kind() const = 0;
    /// Blocking; returns promptly (cancelled set) once `cancel` turns true.
    virtual DevelopmentOutcome develop(const DevelopmentContext &context, const std::atomic_bool &cancel) = 0;
};

/// The last fenced code block (``` or ~~~, any language tag) of a Markdown
/// answer; nothing when it has none (an unclosed last fence counts as
/// closed at the end of the text).
std::optional<QString> lastFencedCodeBlock(const QString &markdown);

} // namespace dreamrsi
