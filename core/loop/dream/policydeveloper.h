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

#include <QList>
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
